#ifndef C_TPM_LIBRARY_H
#define C_TPM_LIBRARY_H

// tpm2-tss's functions this target calls, as one table of pointers filled by dlopen and dlsym on first use.
// Not for Swift.

#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

#define COFFER_TPM_ESYS_FUNCTIONS(X) \
    X(Esys_Initialize) \
    X(Esys_Finalize) \
    X(Esys_Free) \
    X(Esys_CreatePrimary) \
    X(Esys_StartAuthSession) \
    X(Esys_TRSess_SetAttributes) \
    X(Esys_TR_SetAuth) \
    X(Esys_Create) \
    X(Esys_Load) \
    X(Esys_Unseal) \
    X(Esys_PolicyPCR) \
    X(Esys_PolicyAuthValue) \
    X(Esys_PolicyGetDigest) \
    X(Esys_HMAC) \
    X(Esys_Sign) \
    X(Esys_ECDH_ZGen) \
    X(Esys_FlushContext)

#define COFFER_TPM_MU_FUNCTIONS(X) \
    X(Tss2_MU_TPM2B_PRIVATE_Marshal) \
    X(Tss2_MU_TPM2B_PRIVATE_Unmarshal) \
    X(Tss2_MU_TPM2B_PUBLIC_Marshal) \
    X(Tss2_MU_TPM2B_PUBLIC_Unmarshal)

#define COFFER_TPM_TCTILDR_FUNCTIONS(X) \
    X(Tss2_TctiLdr_Initialize) \
    X(Tss2_TctiLdr_Finalize)

#define COFFER_TPM_RC_FUNCTIONS(X) X(Tss2_RC_Decode)

struct coffer_tss {
#define COFFER_TPM_FIELD(name) __typeof__(&name) name;
    COFFER_TPM_ESYS_FUNCTIONS(COFFER_TPM_FIELD)
    COFFER_TPM_MU_FUNCTIONS(COFFER_TPM_FIELD)
    COFFER_TPM_TCTILDR_FUNCTIONS(COFFER_TPM_FIELD)
    COFFER_TPM_RC_FUNCTIONS(COFFER_TPM_FIELD)
#undef COFFER_TPM_FIELD
};

/// The table, or NULL when a library or a function is missing (coffer_tpm_library_error says which).
const struct coffer_tss *coffer_tss(void);

#endif
