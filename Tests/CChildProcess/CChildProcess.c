#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "CChildProcess.h"

int coffer_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int coffer_pipe_close_on_exec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
