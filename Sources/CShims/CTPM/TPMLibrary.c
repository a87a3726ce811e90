#define _GNU_SOURCE
#include "TPMLibrary.h"
#include "CTPM.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct coffer_tss table;
static const struct coffer_tss *loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *open_library(const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL && failure[0] == 0) {
        snprintf(failure, sizeof failure, "%s is not installed (%s)", soname, dlerror());
    }
    return library;
}

static int bind(void *library, void **slot, const char *name) {
    if (library == NULL) return 0;
    *slot = dlsym(library, name);
    if (*slot == NULL && failure[0] == 0) snprintf(failure, sizeof failure, "tpm2-tss has no %s", name);
    return *slot != NULL;
}

static void load(void) {
    // tpm2-tss logs every TPM error to standard error; Coffer reports them itself, with what they mean for the keychain.
    setenv("TSS2_LOG", "all+NONE", 0);
    void *esys = open_library("libtss2-esys.so.0");
    void *mu = open_library("libtss2-mu.so.0");
    void *tctildr = open_library("libtss2-tctildr.so.0");
    void *rc = open_library("libtss2-rc.so.0");
    int complete = esys != NULL && mu != NULL && tctildr != NULL && rc != NULL;
#define COFFER_TPM_BIND_ESYS(name) complete &= bind(esys, (void **)&table.name, #name);
#define COFFER_TPM_BIND_MU(name) complete &= bind(mu, (void **)&table.name, #name);
#define COFFER_TPM_BIND_TCTILDR(name) complete &= bind(tctildr, (void **)&table.name, #name);
#define COFFER_TPM_BIND_RC(name) complete &= bind(rc, (void **)&table.name, #name);
    COFFER_TPM_ESYS_FUNCTIONS(COFFER_TPM_BIND_ESYS)
    COFFER_TPM_MU_FUNCTIONS(COFFER_TPM_BIND_MU)
    COFFER_TPM_TCTILDR_FUNCTIONS(COFFER_TPM_BIND_TCTILDR)
    COFFER_TPM_RC_FUNCTIONS(COFFER_TPM_BIND_RC)
    if (complete) loaded = &table;
}

const struct coffer_tss *coffer_tss(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *coffer_tpm_library_error(void) {
    pthread_once(&once, load);
    return failure;
}
