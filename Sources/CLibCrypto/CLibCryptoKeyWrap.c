#include "CLibCryptoKeyWrap.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

int coffer_aes256_key_unwrap(const uint8_t *kek, const uint8_t *wrapped, size_t wrapped_length, uint8_t *key) {
    int unwrapped = 0;
    int written = 0;
    int finished = 0;
    EVP_CIPHER_CTX *context = NULL;

    if (wrapped_length < 24 || wrapped_length % 8 != 0 || wrapped_length > INT_MAX) goto done;
    context = EVP_CIPHER_CTX_new();
    if (context == NULL) goto done;
    EVP_CIPHER_CTX_set_flags(context, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (EVP_DecryptInit_ex(context, EVP_aes_256_wrap(), NULL, kek, NULL) != 1) goto done;
    if (EVP_DecryptUpdate(context, key, &written, wrapped, (int)wrapped_length) != 1) goto done;
    if (EVP_DecryptFinal_ex(context, key + written, &finished) != 1) goto done;
    unwrapped = (size_t)written + (size_t)finished == wrapped_length - 8;

done:
    if (!unwrapped) OPENSSL_cleanse(key, wrapped_length);
    EVP_CIPHER_CTX_free(context); /* clears the key schedule */
    ERR_clear_error();
    return unwrapped;
}
