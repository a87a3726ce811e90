// How many tests Swift Testing runs at once in this test bundle.
//
// Swift Testing starts every test at once unless told otherwise. On a 2-core machine that puts dozens of
// daemons, prompt agents and passcode KDFs (about 0.7 s each in a debug build) on two cores at the same
// time, and the tests that measure the keychain's own time windows (a proof's 10 s lifetime, a throttle's
// delay, a connect time-out) then see those windows pass while they wait for a core. Capping the number
// of tests in flight at twice the cores (at least 4) leaves the suite's time unchanged here (255 s against
// 253 s) and keeps each test's waits short. The cap is Swift Testing's own setting,
// SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH, set before the test runner reads it; a value the
// caller set is kept.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void coffer_cap_parallel_tests(void) {
    const char *name = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH";
    if (getenv(name) != NULL) return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long width = cores > 2 ? 2 * cores : 4;
    char value[24];
    snprintf(value, sizeof value, "%ld", width);
    setenv(name, value, 0);
}
