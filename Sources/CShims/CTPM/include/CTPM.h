#ifndef C_TPM_H
#define C_TPM_H

// A TPM 2.0 through tpm2-tss's ESAPI, for the keystore: the storage root key, sealing, a keyed HMAC, and ECC P-256
// keys that sign and agree inside the TPM.
//
// tpm2-tss is loaded with dlopen on the first call (libtss2-esys, -tctildr, -mu, -rc): a machine without it runs
// Coffer as before, and coffer_tpm_open says why there is no TPM. A `coffer_tpm` owns one ESAPI context, which is
// not thread-safe: its owner serialises every call. Each call copies what the TPM returned into the caller's
// buffers, zeroes secrets in ESAPI's outputs and frees them.
//
// Every function returns 0 or a TSS2_RC (the TPM's or tpm2-tss's code), or one of COFFER_TPM_ERROR_*; the text for
// people is coffer_tpm_error_text's.

#include <stddef.h>
#include <stdint.h>

/// tpm2-tss's libraries are not installed (coffer_tpm_library_error says which is missing).
#define COFFER_TPM_ERROR_NO_LIBRARY 0xC0FF0001u
/// A wrapped object the TPM is given does not parse.
#define COFFER_TPM_ERROR_BAD_BLOB 0xC0FF0002u
/// A caller's buffer is too small, or an input too large for the TPM.
#define COFFER_TPM_ERROR_SIZE 0xC0FF0003u
/// The TPM answered with something other than what the command promises.
#define COFFER_TPM_ERROR_UNEXPECTED 0xC0FF0004u

/// The longest authorisation value an object may be given (SHA-256's digest, the objects' name algorithm).
#define COFFER_TPM_AUTH_CAPACITY 32

/// The largest wrapped object this interface writes (TPM2B_PRIVATE and TPM2B_PUBLIC, marshalled).
#define COFFER_TPM_BLOB_CAPACITY 1024

typedef struct coffer_tpm coffer_tpm;

/// Opens the TPM `tcti` names (tpm2-tss's TCTI configuration, "device:/dev/tpmrm0", "swtpm:host=…,port=…"),
/// makes the storage root key (an ECC P-256 primary from the TCG's standard template, in the owner hierarchy) and
/// starts a session salted with it, with parameter encryption. The SRK's public point is written to `srk_x` and
/// `srk_y` (32 bytes each).
uint32_t coffer_tpm_open(const char *tcti, coffer_tpm **out, uint8_t srk_x[32], uint8_t srk_y[32]);

/// Flushes the session and every object still loaded, and closes the TCTI.
void coffer_tpm_close(coffer_tpm *tpm);

/// Why tpm2-tss could not be loaded, after COFFER_TPM_ERROR_NO_LIBRARY; empty otherwise.
const char *coffer_tpm_library_error(void);

/// Text for people about `code`, into `text` (always terminated).
void coffer_tpm_error_text(uint32_t code, char *text, size_t capacity);

// Objects are made with the authorisation value `auth` (`auth_length` ≤ COFFER_TPM_AUTH_CAPACITY bytes; none when 0)
// and used with it: the salted session's HMAC proves it to the TPM, which never sees it in the clear. Every object is
// noDA, so a wrong value is refused (TPM_RC_BAD_AUTH) without counting towards the TPM's dictionary-attack lockout.

// A sealed object may also be bound to PCRs: `pcr_mask` names PCRs of the SHA-256 bank (bit i for PCR i, 0–23; 0 for
// none). Such an object's authorisation is a policy (TPM2_PolicyPCR over the PCRs' values when it was sealed, then
// TPM2_PolicyAuthValue when it has an authorisation value), so it unseals only while those PCRs hold the same values.

/// The PCRs a mask may name: PCR 0 to 23.
#define COFFER_TPM_PCR_MASK_ALL 0x00FFFFFFu

/// Seals `length` (≤ 128) bytes under the SRK: a keyed-hash data object (fixedTPM, fixedParent, noDA), bound to the
/// current values of the PCRs `pcr_mask` names. Writes the wrapped object to `blob`.
uint32_t coffer_tpm_seal(
    coffer_tpm *tpm, const uint8_t *data, size_t length, const uint8_t *auth, size_t auth_length, uint32_t pcr_mask,
    uint8_t *blob, size_t capacity, size_t *blob_length);

/// Loads a sealed object, unseals it into `data` and flushes it; `pcr_mask` is the one it was sealed with (the
/// policy session is salted with the SRK and encrypts the response).
uint32_t coffer_tpm_unseal(
    coffer_tpm *tpm, const uint8_t *blob, size_t blob_length, const uint8_t *auth, size_t auth_length, uint32_t pcr_mask,
    uint8_t *data, size_t capacity, size_t *data_length);

/// Creates an HMAC-SHA256 key made inside the TPM (fixedTPM, fixedParent, sensitiveDataOrigin, noDA).
uint32_t coffer_tpm_create_hmac_key(
    coffer_tpm *tpm, const uint8_t *auth, size_t auth_length, uint8_t *blob, size_t capacity, size_t *blob_length);

/// Creates an ECC P-256 key made inside the TPM that both signs (ECDSA) and agrees (ECDH), with its public point.
uint32_t coffer_tpm_create_ecc_key(
    coffer_tpm *tpm, const uint8_t *auth, size_t auth_length, uint8_t *blob, size_t capacity, size_t *blob_length,
    uint8_t x[32], uint8_t y[32]);

/// Loads a wrapped object under the SRK, to be used with `auth`; `handle` names it until coffer_tpm_flush.
uint32_t coffer_tpm_load(
    coffer_tpm *tpm, const uint8_t *blob, size_t blob_length, const uint8_t *auth, size_t auth_length,
    uint32_t *handle);

/// Unloads an object coffer_tpm_load loaded.
uint32_t coffer_tpm_flush(coffer_tpm *tpm, uint32_t handle);

/// HMAC-SHA256 of `length` (≤ 1024) bytes under a loaded HMAC key.
uint32_t coffer_tpm_hmac(coffer_tpm *tpm, uint32_t key, const uint8_t *data, size_t length, uint8_t mac[32]);

/// ECDSA over a SHA-256 digest with a loaded ECC key: r and s, 32 bytes each.
uint32_t coffer_tpm_sign(coffer_tpm *tpm, uint32_t key, const uint8_t digest[32], uint8_t r[32], uint8_t s[32]);

/// ECDH with a loaded ECC key and a peer's point: the shared point's x coordinate.
uint32_t coffer_tpm_ecdh(
    coffer_tpm *tpm, uint32_t key, const uint8_t peer_x[32], const uint8_t peer_y[32], uint8_t shared_x[32]);

#endif
