#include "CLibCryptoGCM.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

int coffer_aes256gcm_open(const uint8_t *key, const uint8_t *nonce,
                          const uint8_t *aad, size_t aad_length,
                          const uint8_t *ciphertext, size_t length, const uint8_t *tag,
                          uint8_t *plaintext) {
    int authentic = 0;
    int written = 0;
    int finished = 0;
    EVP_CIPHER_CTX *context = NULL;

    if (length > INT_MAX || aad_length > INT_MAX) goto done;
    context = EVP_CIPHER_CTX_new();
    if (context == NULL) goto done;
    // The default GCM IV length is 12 bytes, the nonce length of the item format.
    if (EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), NULL, key, nonce) != 1) goto done;
    if (aad_length > 0 && EVP_DecryptUpdate(context, NULL, &written, aad, (int)aad_length) != 1) goto done;
    written = 0;
    if (length > 0 && EVP_DecryptUpdate(context, plaintext, &written, ciphertext, (int)length) != 1) goto done;
    if (EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) goto done;
    if (EVP_DecryptFinal_ex(context, plaintext + written, &finished) != 1) goto done;
    authentic = (size_t)written + (size_t)finished == length;

done:
    if (!authentic && length > 0) OPENSSL_cleanse(plaintext, length);
    EVP_CIPHER_CTX_free(context); /* clears the key schedule */
    ERR_clear_error();
    return authentic;
}
