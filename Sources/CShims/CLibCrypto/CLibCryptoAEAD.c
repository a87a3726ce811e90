#include "CLibCryptoAEAD.h"

#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include "CLibCryptoLoader.h"  // after every other header: libcrypto loaded on first use

struct coffer_aes_gcm_sealer {
    EVP_CIPHER_CTX *context;
};

coffer_aes_gcm_sealer *coffer_aes_gcm_sealer_new(const uint8_t key[32]) {
    coffer_aes_gcm_sealer *sealer = malloc(sizeof *sealer);
    if (sealer == NULL) return NULL;
    sealer->context = EVP_CIPHER_CTX_new();
    if (sealer->context == NULL || EVP_EncryptInit_ex(sealer->context, EVP_aes_256_gcm(), NULL, key, NULL) != 1) {
        coffer_aes_gcm_sealer_free(sealer);
        return NULL;
    }
    return sealer;
}

void coffer_aes_gcm_sealer_free(coffer_aes_gcm_sealer *sealer) {
    if (sealer == NULL) return;
    if (sealer->context != NULL) EVP_CIPHER_CTX_free(sealer->context);  // clears the key schedule
    free(sealer);
}

int coffer_aes_gcm_seal(coffer_aes_gcm_sealer *sealer, const uint8_t nonce[12], const uint8_t *aad, size_t aad_length,
                        const uint8_t *plaintext, size_t plaintext_length, uint8_t *output) {
    if (aad_length > INT_MAX || plaintext_length > INT_MAX) return 0;
    int length = 0;
    // The default nonce length of GCM is 12 bytes; a NULL key keeps the schedule made by coffer_aes_gcm_sealer_new.
    if (EVP_EncryptInit_ex(sealer->context, NULL, NULL, NULL, nonce) != 1) return 0;
    if (aad_length > 0 && EVP_EncryptUpdate(sealer->context, NULL, &length, aad, (int)aad_length) != 1) return 0;
    if (EVP_EncryptUpdate(sealer->context, output, &length, plaintext, (int)plaintext_length) != 1) return 0;
    int final_length = 0;
    if (EVP_EncryptFinal_ex(sealer->context, output + length, &final_length) != 1) return 0;
    if ((size_t)(length + final_length) != plaintext_length) return 0;
    return EVP_CIPHER_CTX_ctrl(sealer->context, EVP_CTRL_GCM_GET_TAG, 16, output + plaintext_length) == 1;
}
