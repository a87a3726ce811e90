#ifndef C_LIB_CRYPTO_AEAD_H
#define C_LIB_CRYPTO_AEAD_H

#include <stddef.h>
#include <stdint.h>

/// An AES-256-GCM key made ready once: a cipher context whose key schedule is computed when it is made, so each
/// seal only sets its nonce. Not for two threads at once: its owner seals under a lock.
typedef struct coffer_aes_gcm_sealer coffer_aes_gcm_sealer;

/// A sealer for the 32-byte `key`; NULL when libcrypto cannot make the context. Free it with
/// `coffer_aes_gcm_sealer_free`.
coffer_aes_gcm_sealer *coffer_aes_gcm_sealer_new(const uint8_t key[32]);

/// Clears and frees a sealer (NULL is allowed).
void coffer_aes_gcm_sealer_free(coffer_aes_gcm_sealer *sealer);

/// Seals `plaintext` with the 12-byte `nonce`, authenticating `aad`: writes the ciphertext (as long as the
/// plaintext) then the 16-byte tag to `output`, which holds `plaintext_length + 16` bytes. Returns 1, or 0 on failure.
int coffer_aes_gcm_seal(coffer_aes_gcm_sealer *sealer, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length,
                        const uint8_t *plaintext, size_t plaintext_length, uint8_t *output);

#endif
