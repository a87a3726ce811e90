#define _GNU_SOURCE
#include "CTPM.h"
#include "TPMLibrary.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Objects a context may hold loaded at once besides the SRK (a TPM without a resource manager holds three).
#define COFFER_TPM_MAXIMUM_LOADED 4

struct coffer_tpm {
    const struct coffer_tss *tss;
    TSS2_TCTI_CONTEXT *tcti;
    ESYS_CONTEXT *esys;
    ESYS_TR srk;
    ESYS_TR session;
    ESYS_TR loaded[COFFER_TPM_MAXIMUM_LOADED];
    struct coffer_tpm *next;
};

// A TPM reached without a resource manager (swtpm, a raw /dev/tpm0) keeps what a process loaded after it exits, and
// holds only three objects and three sessions: every open context is listed here and flushed when the process exits,
// as the kernel's resource manager (/dev/tpmrm0) would have done.
static pthread_mutex_t open_contexts_lock = PTHREAD_MUTEX_INITIALIZER;
static struct coffer_tpm *open_contexts;
static pthread_once_t exit_hook_once = PTHREAD_ONCE_INIT;

static void flush_all(coffer_tpm *tpm) {
    if (tpm->esys == NULL) return;
    for (int index = 0; index < COFFER_TPM_MAXIMUM_LOADED; index++) {
        if (tpm->loaded[index] != ESYS_TR_NONE) tpm->tss->Esys_FlushContext(tpm->esys, tpm->loaded[index]);
        tpm->loaded[index] = ESYS_TR_NONE;
    }
    if (tpm->session != ESYS_TR_NONE) tpm->tss->Esys_FlushContext(tpm->esys, tpm->session);
    if (tpm->srk != ESYS_TR_NONE) tpm->tss->Esys_FlushContext(tpm->esys, tpm->srk);
    tpm->session = ESYS_TR_NONE;
    tpm->srk = ESYS_TR_NONE;
}

static void flush_at_exit(void) {
    pthread_mutex_lock(&open_contexts_lock);
    for (struct coffer_tpm *tpm = open_contexts; tpm != NULL; tpm = tpm->next) flush_all(tpm);
    pthread_mutex_unlock(&open_contexts_lock);
}

static void install_exit_hook(void) { atexit(flush_at_exit); }

static void list_context(coffer_tpm *tpm) {
    pthread_once(&exit_hook_once, install_exit_hook);
    pthread_mutex_lock(&open_contexts_lock);
    tpm->next = open_contexts;
    open_contexts = tpm;
    pthread_mutex_unlock(&open_contexts_lock);
}

static void unlist_context(coffer_tpm *tpm) {
    pthread_mutex_lock(&open_contexts_lock);
    for (struct coffer_tpm **link = &open_contexts; *link != NULL; link = &(*link)->next) {
        if (*link == tpm) {
            *link = tpm->next;
            break;
        }
    }
    pthread_mutex_unlock(&open_contexts_lock);
}

/// The TCG's ECC P-256 storage key template (EK Credential Profile L-2, with the Provisioning Guidance's changes:
/// userWithAuth and noDA set, adminWithPolicy clear; attributes 0x30472), so any program that follows it finds the
/// same SRK.
static const TPM2B_PUBLIC srk_template = {
    .publicArea = {
        .type = TPM2_ALG_ECC,
        .nameAlg = TPM2_ALG_SHA256,
        .objectAttributes = TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT | TPMA_OBJECT_FIXEDTPM
            | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA,
        .parameters.eccDetail = {
            .symmetric = { .algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB },
            .scheme.scheme = TPM2_ALG_NULL,
            .curveID = TPM2_ECC_NIST_P256,
            .kdf.scheme = TPM2_ALG_NULL,
        },
        .unique.ecc = { .x.size = 32, .y.size = 32 },
    },
};

/// Parameter encryption in both directions, keeping the session: for commands whose first parameter, and first
/// response parameter, are sized buffers.
static const TPMA_SESSION both_ways = TPMA_SESSION_CONTINUESESSION | TPMA_SESSION_DECRYPT | TPMA_SESSION_ENCRYPT;
/// Response encryption only: for commands without parameters (TPM2_Unseal).
static const TPMA_SESSION response_only = TPMA_SESSION_CONTINUESESSION | TPMA_SESSION_ENCRYPT;

static TSS2_RC use_session(coffer_tpm *tpm, TPMA_SESSION attributes) {
    return tpm->tss->Esys_TRSess_SetAttributes(tpm->esys, tpm->session, attributes, 0xff);
}

/// Copies an ECC point's coordinates, each left-padded to 32 bytes.
static TSS2_RC copy_point(const TPMS_ECC_POINT *point, uint8_t x[32], uint8_t y[32]) {
    if (point->x.size > 32 || point->y.size > 32) return COFFER_TPM_ERROR_UNEXPECTED;
    memset(x, 0, 32);
    memset(y, 0, 32);
    memcpy(x + 32 - point->x.size, point->x.buffer, point->x.size);
    memcpy(y + 32 - point->y.size, point->y.buffer, point->y.size);
    return TSS2_RC_SUCCESS;
}

uint32_t coffer_tpm_open(const char *tcti, coffer_tpm **out, uint8_t srk_x[32], uint8_t srk_y[32]) {
    *out = NULL;
    const struct coffer_tss *tss = coffer_tss();
    if (tss == NULL) return COFFER_TPM_ERROR_NO_LIBRARY;
    coffer_tpm *tpm = calloc(1, sizeof *tpm);
    if (tpm == NULL) return COFFER_TPM_ERROR_SIZE;
    tpm->tss = tss;
    tpm->srk = ESYS_TR_NONE;
    tpm->session = ESYS_TR_NONE;
    for (int index = 0; index < COFFER_TPM_MAXIMUM_LOADED; index++) tpm->loaded[index] = ESYS_TR_NONE;
    list_context(tpm);
    TSS2_RC rc = tss->Tss2_TctiLdr_Initialize(tcti, &tpm->tcti);
    if (rc == TSS2_RC_SUCCESS) rc = tss->Esys_Initialize(&tpm->esys, tpm->tcti, NULL);
    TPM2B_PUBLIC *public = NULL;
    if (rc == TSS2_RC_SUCCESS) {
        TPM2B_SENSITIVE_CREATE empty = { 0 };
        TPM2B_DATA no_outside_info = { 0 };
        TPML_PCR_SELECTION no_pcrs = { 0 };
        rc = tss->Esys_CreatePrimary(
            tpm->esys, ESYS_TR_RH_OWNER, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &empty, &srk_template,
            &no_outside_info, &no_pcrs, &tpm->srk, &public, NULL, NULL, NULL);
    }
    if (rc == TSS2_RC_SUCCESS) rc = copy_point(&public->publicArea.unique.ecc, srk_x, srk_y);
    if (public != NULL) tss->Esys_Free(public);
    if (rc == TSS2_RC_SUCCESS) {
        TPMT_SYM_DEF aes = { .algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB };
        rc = tss->Esys_StartAuthSession(
            tpm->esys, tpm->srk, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, NULL, TPM2_SE_HMAC, &aes,
            TPM2_ALG_SHA256, &tpm->session);
    }
    if (rc != TSS2_RC_SUCCESS) {
        coffer_tpm_close(tpm);
        return rc;
    }
    *out = tpm;
    return TSS2_RC_SUCCESS;
}

void coffer_tpm_close(coffer_tpm *tpm) {
    if (tpm == NULL) return;
    unlist_context(tpm);
    if (tpm->esys != NULL) {
        flush_all(tpm);
        tpm->tss->Esys_Finalize(&tpm->esys);
    }
    if (tpm->tcti != NULL) tpm->tss->Tss2_TctiLdr_Finalize(&tpm->tcti);
    free(tpm);
}

void coffer_tpm_error_text(uint32_t code, char *text, size_t capacity) {
    if (capacity == 0) return;
    switch (code) {
    case COFFER_TPM_ERROR_NO_LIBRARY:
        snprintf(text, capacity, "tpm2-tss is not available: %s", coffer_tpm_library_error());
        return;
    case COFFER_TPM_ERROR_BAD_BLOB:
        snprintf(text, capacity, "a TPM object stored by the keychain does not parse");
        return;
    case COFFER_TPM_ERROR_SIZE:
        snprintf(text, capacity, "a TPM buffer is too small or an input too large");
        return;
    case COFFER_TPM_ERROR_UNEXPECTED:
        snprintf(text, capacity, "the TPM answered with an unexpected value");
        return;
    }
    const struct coffer_tss *tss = coffer_tss();
    if (tss == NULL) {
        snprintf(text, capacity, "TPM error 0x%x", code);
        return;
    }
    snprintf(text, capacity, "%s (0x%x)", tss->Tss2_RC_Decode(code), code);
}

/// Puts `auth` in a new object's sensitive area.
static uint32_t set_user_auth(TPM2B_SENSITIVE_CREATE *sensitive, const uint8_t *auth, size_t auth_length) {
    if (auth_length > COFFER_TPM_AUTH_CAPACITY || auth_length > sizeof sensitive->sensitive.userAuth.buffer) {
        return COFFER_TPM_ERROR_SIZE;
    }
    sensitive->sensitive.userAuth.size = (UINT16)auth_length;
    if (auth_length > 0) memcpy(sensitive->sensitive.userAuth.buffer, auth, auth_length);
    return TSS2_RC_SUCCESS;
}

/// Writes private ‖ public, each marshalled as the TPM's sized structure.
static uint32_t marshal(
    coffer_tpm *tpm, const TPM2B_PRIVATE *private, const TPM2B_PUBLIC *public, uint8_t *blob, size_t capacity,
    size_t *blob_length) {
    size_t offset = 0;
    TSS2_RC rc = tpm->tss->Tss2_MU_TPM2B_PRIVATE_Marshal(private, blob, capacity, &offset);
    if (rc == TSS2_RC_SUCCESS) rc = tpm->tss->Tss2_MU_TPM2B_PUBLIC_Marshal(public, blob, capacity, &offset);
    if (rc != TSS2_RC_SUCCESS) return COFFER_TPM_ERROR_SIZE;
    *blob_length = offset;
    return TSS2_RC_SUCCESS;
}

static uint32_t unmarshal(
    coffer_tpm *tpm, const uint8_t *blob, size_t blob_length, TPM2B_PRIVATE *private, TPM2B_PUBLIC *public) {
    size_t offset = 0;
    TSS2_RC rc = tpm->tss->Tss2_MU_TPM2B_PRIVATE_Unmarshal(blob, blob_length, &offset, private);
    if (rc == TSS2_RC_SUCCESS) rc = tpm->tss->Tss2_MU_TPM2B_PUBLIC_Unmarshal(blob, blob_length, &offset, public);
    if (rc != TSS2_RC_SUCCESS || offset != blob_length) return COFFER_TPM_ERROR_BAD_BLOB;
    return TSS2_RC_SUCCESS;
}

/// TPM2_Create under the SRK, through the salted session; the new object's wrapped form into `blob`.
static uint32_t create(
    coffer_tpm *tpm, TPM2B_SENSITIVE_CREATE *sensitive, const TPM2B_PUBLIC *template, uint8_t *blob,
    size_t capacity, size_t *blob_length, TPM2B_PUBLIC **public_out) {
    TPM2B_DATA no_outside_info = { 0 };
    TPML_PCR_SELECTION no_pcrs = { 0 };
    TPM2B_PRIVATE *private = NULL;
    TPM2B_PUBLIC *public = NULL;
    TSS2_RC rc = use_session(tpm, both_ways);
    if (rc == TSS2_RC_SUCCESS) {
        rc = tpm->tss->Esys_Create(
            tpm->esys, tpm->srk, tpm->session, ESYS_TR_NONE, ESYS_TR_NONE, sensitive, template, &no_outside_info,
            &no_pcrs, &private, &public, NULL, NULL, NULL);
    }
    if (rc == TSS2_RC_SUCCESS) rc = marshal(tpm, private, public, blob, capacity, blob_length);
    if (private != NULL) tpm->tss->Esys_Free(private);
    if (public_out != NULL && rc == TSS2_RC_SUCCESS) {
        *public_out = public;
    } else if (public != NULL) {
        tpm->tss->Esys_Free(public);
    }
    return rc;
}

/// The SHA-256 bank's PCRs `mask` names.
static void pcr_selection(uint32_t mask, TPML_PCR_SELECTION *selection) {
    memset(selection, 0, sizeof *selection);
    selection->count = 1;
    selection->pcrSelections[0].hash = TPM2_ALG_SHA256;
    selection->pcrSelections[0].sizeofSelect = 3;
    selection->pcrSelections[0].pcrSelect[0] = (BYTE)(mask & 0xff);
    selection->pcrSelections[0].pcrSelect[1] = (BYTE)((mask >> 8) & 0xff);
    selection->pcrSelections[0].pcrSelect[2] = (BYTE)((mask >> 16) & 0xff);
}

/// Runs a PCR-bound object's policy in `session`: TPM2_PolicyPCR over the PCRs' current values (an empty digest asks
/// the TPM to use them), then TPM2_PolicyAuthValue when the object has an authorisation value.
static TSS2_RC run_policy(coffer_tpm *tpm, ESYS_TR session, uint32_t pcr_mask, int with_auth) {
    TPML_PCR_SELECTION selection;
    pcr_selection(pcr_mask, &selection);
    TPM2B_DIGEST current_values = { 0 };
    TSS2_RC rc = tpm->tss->Esys_PolicyPCR(
        tpm->esys, session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &current_values, &selection);
    if (rc == TSS2_RC_SUCCESS && with_auth) {
        rc = tpm->tss->Esys_PolicyAuthValue(tpm->esys, session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE);
    }
    return rc;
}

/// The policy digest of a PCR-bound object, from a trial session (nothing is authorised by it).
static TSS2_RC policy_digest(coffer_tpm *tpm, uint32_t pcr_mask, int with_auth, TPM2B_DIGEST *digest) {
    TPMT_SYM_DEF no_encryption = { .algorithm = TPM2_ALG_NULL };
    ESYS_TR trial = ESYS_TR_NONE;
    TSS2_RC rc = tpm->tss->Esys_StartAuthSession(
        tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, NULL, TPM2_SE_TRIAL,
        &no_encryption, TPM2_ALG_SHA256, &trial);
    if (rc != TSS2_RC_SUCCESS) return rc;
    rc = run_policy(tpm, trial, pcr_mask, with_auth);
    TPM2B_DIGEST *result = NULL;
    if (rc == TSS2_RC_SUCCESS) {
        rc = tpm->tss->Esys_PolicyGetDigest(tpm->esys, trial, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &result);
    }
    if (rc == TSS2_RC_SUCCESS) {
        if (result->size > sizeof digest->buffer) {
            rc = COFFER_TPM_ERROR_UNEXPECTED;
        } else {
            *digest = *result;
        }
    }
    if (result != NULL) tpm->tss->Esys_Free(result);
    tpm->tss->Esys_FlushContext(tpm->esys, trial);
    return rc;
}

uint32_t coffer_tpm_seal(
    coffer_tpm *tpm, const uint8_t *data, size_t length, const uint8_t *auth, size_t auth_length, uint32_t pcr_mask,
    uint8_t *blob, size_t capacity, size_t *blob_length) {
    TPM2B_SENSITIVE_CREATE sensitive = { 0 };
    if (length > 128 || length > sizeof sensitive.sensitive.data.buffer) return COFFER_TPM_ERROR_SIZE;
    if (pcr_mask & ~COFFER_TPM_PCR_MASK_ALL) return COFFER_TPM_ERROR_SIZE;
    if (set_user_auth(&sensitive, auth, auth_length) != TSS2_RC_SUCCESS) return COFFER_TPM_ERROR_SIZE;
    TPM2B_PUBLIC template = {
        .publicArea = {
            .type = TPM2_ALG_KEYEDHASH,
            .nameAlg = TPM2_ALG_SHA256,
            .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_USERWITHAUTH
                | TPMA_OBJECT_NODA,
            .parameters.keyedHashDetail.scheme.scheme = TPM2_ALG_NULL,
        },
    };
    if (pcr_mask != 0) {
        // Only the policy authorises the object: userWithAuth clear, so its value alone is not enough.
        uint32_t rc = policy_digest(tpm, pcr_mask, auth_length > 0, &template.publicArea.authPolicy);
        if (rc != TSS2_RC_SUCCESS) return rc;
        template.publicArea.objectAttributes &= ~TPMA_OBJECT_USERWITHAUTH;
    }
    sensitive.sensitive.data.size = (UINT16)length;
    memcpy(sensitive.sensitive.data.buffer, data, length);
    uint32_t rc = create(tpm, &sensitive, &template, blob, capacity, blob_length, NULL);
    explicit_bzero(&sensitive, sizeof sensitive);
    return rc;
}

/// TPM2_Unseal of a loaded object through the salted HMAC session, or for a PCR-bound object through a policy
/// session salted with the SRK, started for this one command and flushed after it.
static uint32_t unseal_loaded(coffer_tpm *tpm, ESYS_TR handle, uint32_t pcr_mask, int with_auth, TPM2B_SENSITIVE_DATA **unsealed) {
    if (pcr_mask == 0) {
        TSS2_RC rc = use_session(tpm, response_only);
        if (rc != TSS2_RC_SUCCESS) return rc;
        return tpm->tss->Esys_Unseal(tpm->esys, handle, tpm->session, ESYS_TR_NONE, ESYS_TR_NONE, unsealed);
    }
    TPMT_SYM_DEF aes = { .algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB };
    ESYS_TR policy = ESYS_TR_NONE;
    TSS2_RC rc = tpm->tss->Esys_StartAuthSession(
        tpm->esys, tpm->srk, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, NULL, TPM2_SE_POLICY, &aes,
        TPM2_ALG_SHA256, &policy);
    if (rc != TSS2_RC_SUCCESS) return rc;
    rc = run_policy(tpm, policy, pcr_mask, with_auth);
    if (rc == TSS2_RC_SUCCESS) rc = tpm->tss->Esys_TRSess_SetAttributes(tpm->esys, policy, response_only, 0xff);
    if (rc == TSS2_RC_SUCCESS) rc = tpm->tss->Esys_Unseal(tpm->esys, handle, policy, ESYS_TR_NONE, ESYS_TR_NONE, unsealed);
    tpm->tss->Esys_FlushContext(tpm->esys, policy);
    return rc;
}

uint32_t coffer_tpm_unseal(
    coffer_tpm *tpm, const uint8_t *blob, size_t blob_length, const uint8_t *auth, size_t auth_length, uint32_t pcr_mask,
    uint8_t *data, size_t capacity, size_t *data_length) {
    if (pcr_mask & ~COFFER_TPM_PCR_MASK_ALL) return COFFER_TPM_ERROR_SIZE;
    uint32_t handle = ESYS_TR_NONE;
    uint32_t rc = coffer_tpm_load(tpm, blob, blob_length, auth, auth_length, &handle);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPM2B_SENSITIVE_DATA *unsealed = NULL;
    rc = unseal_loaded(tpm, handle, pcr_mask, auth_length > 0, &unsealed);
    if (rc == TSS2_RC_SUCCESS) {
        if (unsealed->size > capacity) {
            rc = COFFER_TPM_ERROR_SIZE;
        } else {
            memcpy(data, unsealed->buffer, unsealed->size);
            *data_length = unsealed->size;
        }
    }
    if (unsealed != NULL) {
        explicit_bzero(unsealed, sizeof *unsealed);
        tpm->tss->Esys_Free(unsealed);
    }
    uint32_t flushed = coffer_tpm_flush(tpm, handle);
    return rc != TSS2_RC_SUCCESS ? rc : flushed;
}

uint32_t coffer_tpm_create_hmac_key(
    coffer_tpm *tpm, const uint8_t *auth, size_t auth_length, uint8_t *blob, size_t capacity, size_t *blob_length) {
    TPM2B_SENSITIVE_CREATE sensitive = { 0 };
    if (set_user_auth(&sensitive, auth, auth_length) != TSS2_RC_SUCCESS) return COFFER_TPM_ERROR_SIZE;
    TPM2B_PUBLIC template = {
        .publicArea = {
            .type = TPM2_ALG_KEYEDHASH,
            .nameAlg = TPM2_ALG_SHA256,
            .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
                | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA | TPMA_OBJECT_SIGN_ENCRYPT,
            .parameters.keyedHashDetail.scheme = {
                .scheme = TPM2_ALG_HMAC,
                .details.hmac.hashAlg = TPM2_ALG_SHA256,
            },
        },
    };
    uint32_t rc = create(tpm, &sensitive, &template, blob, capacity, blob_length, NULL);
    explicit_bzero(&sensitive, sizeof sensitive);
    return rc;
}

uint32_t coffer_tpm_create_ecc_key(
    coffer_tpm *tpm, const uint8_t *auth, size_t auth_length, uint8_t *blob, size_t capacity, size_t *blob_length,
    uint8_t x[32], uint8_t y[32]) {
    TPM2B_SENSITIVE_CREATE sensitive = { 0 };
    if (set_user_auth(&sensitive, auth, auth_length) != TSS2_RC_SUCCESS) return COFFER_TPM_ERROR_SIZE;
    TPM2B_PUBLIC template = {
        .publicArea = {
            .type = TPM2_ALG_ECC,
            .nameAlg = TPM2_ALG_SHA256,
            .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
                | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA | TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_DECRYPT,
            .parameters.eccDetail = {
                .symmetric.algorithm = TPM2_ALG_NULL,
                .scheme.scheme = TPM2_ALG_NULL,
                .curveID = TPM2_ECC_NIST_P256,
                .kdf.scheme = TPM2_ALG_NULL,
            },
        },
    };
    TPM2B_PUBLIC *public = NULL;
    uint32_t rc = create(tpm, &sensitive, &template, blob, capacity, blob_length, &public);
    explicit_bzero(&sensitive, sizeof sensitive);
    if (rc != TSS2_RC_SUCCESS) return rc;
    rc = copy_point(&public->publicArea.unique.ecc, x, y);
    tpm->tss->Esys_Free(public);
    return rc;
}

uint32_t coffer_tpm_load(
    coffer_tpm *tpm, const uint8_t *blob, size_t blob_length, const uint8_t *auth, size_t auth_length,
    uint32_t *handle) {
    TPM2B_AUTH value = { 0 };
    if (auth_length > COFFER_TPM_AUTH_CAPACITY || auth_length > sizeof value.buffer) return COFFER_TPM_ERROR_SIZE;
    TPM2B_PRIVATE private = { 0 };
    TPM2B_PUBLIC public = { 0 };
    uint32_t rc = unmarshal(tpm, blob, blob_length, &private, &public);
    if (rc != TSS2_RC_SUCCESS) return rc;
    rc = use_session(tpm, both_ways);
    if (rc != TSS2_RC_SUCCESS) return rc;
    int slot = -1;
    for (int index = 0; index < COFFER_TPM_MAXIMUM_LOADED && slot < 0; index++) {
        if (tpm->loaded[index] == ESYS_TR_NONE) slot = index;
    }
    if (slot < 0) return COFFER_TPM_ERROR_SIZE;
    ESYS_TR loaded = ESYS_TR_NONE;
    rc = tpm->tss->Esys_Load(
        tpm->esys, tpm->srk, tpm->session, ESYS_TR_NONE, ESYS_TR_NONE, &private, &public, &loaded);
    if (rc != TSS2_RC_SUCCESS) return rc;
    tpm->loaded[slot] = loaded;
    *handle = loaded;
    if (auth_length > 0) {
        value.size = (UINT16)auth_length;
        memcpy(value.buffer, auth, auth_length);
        rc = tpm->tss->Esys_TR_SetAuth(tpm->esys, loaded, &value);
        explicit_bzero(&value, sizeof value);
        if (rc != TSS2_RC_SUCCESS) {
            coffer_tpm_flush(tpm, loaded);
            *handle = ESYS_TR_NONE;
        }
    }
    return rc;
}

uint32_t coffer_tpm_flush(coffer_tpm *tpm, uint32_t handle) {
    for (int index = 0; index < COFFER_TPM_MAXIMUM_LOADED; index++) {
        if (tpm->loaded[index] == handle) tpm->loaded[index] = ESYS_TR_NONE;
    }
    return tpm->tss->Esys_FlushContext(tpm->esys, handle);
}

uint32_t coffer_tpm_hmac(coffer_tpm *tpm, uint32_t key, const uint8_t *data, size_t length, uint8_t mac[32]) {
    TPM2B_MAX_BUFFER input = { 0 };
    if (length > sizeof input.buffer) return COFFER_TPM_ERROR_SIZE;
    input.size = (UINT16)length;
    memcpy(input.buffer, data, length);
    TPM2B_DIGEST *output = NULL;
    TSS2_RC rc = use_session(tpm, both_ways);
    if (rc == TSS2_RC_SUCCESS) {
        rc = tpm->tss->Esys_HMAC(
            tpm->esys, key, tpm->session, ESYS_TR_NONE, ESYS_TR_NONE, &input, TPM2_ALG_SHA256, &output);
    }
    explicit_bzero(&input, sizeof input);
    if (rc == TSS2_RC_SUCCESS) {
        if (output->size != 32) {
            rc = COFFER_TPM_ERROR_UNEXPECTED;
        } else {
            memcpy(mac, output->buffer, 32);
        }
    }
    if (output != NULL) {
        explicit_bzero(output, sizeof *output);
        tpm->tss->Esys_Free(output);
    }
    return rc;
}

static void copy_coordinate(const TPM2B_ECC_PARAMETER *from, uint8_t to[32]) {
    memset(to, 0, 32);
    memcpy(to + 32 - from->size, from->buffer, from->size);
}

uint32_t coffer_tpm_sign(coffer_tpm *tpm, uint32_t key, const uint8_t digest[32], uint8_t r[32], uint8_t s[32]) {
    TPM2B_DIGEST input = { .size = 32 };
    memcpy(input.buffer, digest, 32);
    TPMT_SIG_SCHEME scheme = { .scheme = TPM2_ALG_ECDSA, .details.ecdsa.hashAlg = TPM2_ALG_SHA256 };
    TPMT_TK_HASHCHECK no_ticket = { .tag = TPM2_ST_HASHCHECK, .hierarchy = TPM2_RH_NULL };
    TPMT_SIGNATURE *signature = NULL;
    // TPM2_Sign's response begins with a structure, not a sized buffer: encrypt the command's digest only.
    TSS2_RC rc = use_session(tpm, TPMA_SESSION_CONTINUESESSION | TPMA_SESSION_DECRYPT);
    if (rc == TSS2_RC_SUCCESS) {
        rc = tpm->tss->Esys_Sign(
            tpm->esys, key, tpm->session, ESYS_TR_NONE, ESYS_TR_NONE, &input, &scheme, &no_ticket, &signature);
    }
    if (rc == TSS2_RC_SUCCESS) {
        const TPMS_SIGNATURE_ECC *ecdsa = &signature->signature.ecdsa;
        if (signature->sigAlg != TPM2_ALG_ECDSA || ecdsa->signatureR.size > 32 || ecdsa->signatureS.size > 32) {
            rc = COFFER_TPM_ERROR_UNEXPECTED;
        } else {
            copy_coordinate(&ecdsa->signatureR, r);
            copy_coordinate(&ecdsa->signatureS, s);
        }
    }
    if (signature != NULL) tpm->tss->Esys_Free(signature);
    return rc;
}

uint32_t coffer_tpm_ecdh(
    coffer_tpm *tpm, uint32_t key, const uint8_t peer_x[32], const uint8_t peer_y[32], uint8_t shared_x[32]) {
    TPM2B_ECC_POINT peer = { .size = 68 };
    peer.point.x.size = 32;
    peer.point.y.size = 32;
    memcpy(peer.point.x.buffer, peer_x, 32);
    memcpy(peer.point.y.buffer, peer_y, 32);
    TPM2B_ECC_POINT *shared = NULL;
    TSS2_RC rc = use_session(tpm, both_ways);
    if (rc == TSS2_RC_SUCCESS) {
        rc = tpm->tss->Esys_ECDH_ZGen(tpm->esys, key, tpm->session, ESYS_TR_NONE, ESYS_TR_NONE, &peer, &shared);
    }
    if (rc == TSS2_RC_SUCCESS) {
        if (shared->point.x.size > 32) {
            rc = COFFER_TPM_ERROR_UNEXPECTED;
        } else {
            copy_coordinate(&shared->point.x, shared_x);
        }
    }
    if (shared != NULL) {
        explicit_bzero(shared, sizeof *shared);
        tpm->tss->Esys_Free(shared);
    }
    return rc;
}
