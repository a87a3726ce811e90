#define _GNU_SOURCE
#define COFFER_LIBCRYPTO_LOADER_IMPLEMENTATION
#include "CLibCryptoLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define COFFER_LIBCRYPTO_SONAME "libcrypto.so." OPENSSL_MSTR(OPENSSL_VERSION_MAJOR)

static struct coffer_libcrypto table;
static _Atomic(const struct coffer_libcrypto *) loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen(COFFER_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "coffer: cannot load " COFFER_LIBCRYPTO_SONAME ": %s\n", dlerror());
        abort();
    }
#define COFFER_LIBCRYPTO_LOAD(name)                                                                     \
    table.name = (__typeof__(table.name))dlsym(library, #name);                                         \
    if (table.name == NULL) {                                                                           \
        fprintf(stderr, "coffer: " COFFER_LIBCRYPTO_SONAME " has no %s\n", #name);                    \
        abort();                                                                                        \
    }
    COFFER_LIBCRYPTO_FUNCTIONS(COFFER_LIBCRYPTO_LOAD)
#undef COFFER_LIBCRYPTO_LOAD
    atomic_store_explicit(&loaded, &table, memory_order_release);
}

const struct coffer_libcrypto *coffer_libcrypto(void) {
    const struct coffer_libcrypto *functions = atomic_load_explicit(&loaded, memory_order_acquire);
    if (functions != NULL) return functions;
    pthread_once(&once, load);
    return &table;
}
