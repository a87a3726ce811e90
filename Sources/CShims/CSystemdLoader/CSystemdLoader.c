#define _GNU_SOURCE
#define COFFER_SYSTEMD_LOADER_IMPLEMENTATION
#include "CSystemdLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define COFFER_SYSTEMD_SONAME "libsystemd.so.0"

static struct coffer_systemd table;
static _Atomic(const struct coffer_systemd *) loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (address == NULL) {
        fprintf(stderr, "coffer: " COFFER_SYSTEMD_SONAME " has no %s\n", name);
        abort();
    }
    return address;
}

static void load(void) {
    void *library = dlopen(COFFER_SYSTEMD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "coffer: cannot load " COFFER_SYSTEMD_SONAME ": %s\n", dlerror());
        abort();
    }
#define COFFER_SYSTEMD_LOAD(name) table.name = (__typeof__(table.name))symbol(library, #name);
    COFFER_SYSTEMD_FUNCTIONS(COFFER_SYSTEMD_LOAD)
#undef COFFER_SYSTEMD_LOAD
    table.sd_bus_object_vtable_format = (const unsigned *)symbol(library, "sd_bus_object_vtable_format");
    atomic_store_explicit(&loaded, &table, memory_order_release);
}

const struct coffer_systemd *coffer_systemd(void) {
    const struct coffer_systemd *functions = atomic_load_explicit(&loaded, memory_order_acquire);
    if (functions != NULL) return functions;
    pthread_once(&once, load);
    return &table;
}
