#include "CLibCrypto.h"

#include <limits.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include "CLibCryptoLoader.h"  // after every other header: libcrypto loaded on first use

int coffer_libcrypto_decrypt(const char *cipher_name, int legacy,
                             const uint8_t *key, size_t key_length,
                             const uint8_t *iv, size_t iv_length,
                             const uint8_t *input, size_t input_length,
                             uint8_t *output, size_t *output_length) {
    int result = COFFER_LIBCRYPTO_FAILED;
    OSSL_LIB_CTX *library = NULL;
    OSSL_PROVIDER *provider = NULL;
    EVP_CIPHER *cipher = NULL;
    EVP_CIPHER_CTX *context = NULL;
    int updated = 0;
    int finished = 0;

    *output_length = 0;
    if (input_length > (size_t)INT_MAX - 64 || key_length > INT_MAX) goto done;
    if (legacy) {
        library = OSSL_LIB_CTX_new();
        if (library == NULL) goto done;
        provider = OSSL_PROVIDER_load(library, "legacy");
        if (provider == NULL) {
            result = COFFER_LIBCRYPTO_UNAVAILABLE;
            goto done;
        }
    }
    cipher = EVP_CIPHER_fetch(library, cipher_name, NULL);
    if (cipher == NULL) {
        result = COFFER_LIBCRYPTO_UNAVAILABLE;
        goto done;
    }
    if ((size_t)EVP_CIPHER_get_iv_length(cipher) != iv_length) goto done;
    context = EVP_CIPHER_CTX_new();
    if (context == NULL) goto done;
    if (EVP_DecryptInit_ex2(context, cipher, NULL, NULL, NULL) != 1) goto done;
    if ((size_t)EVP_CIPHER_CTX_get_key_length(context) != key_length
        && EVP_CIPHER_CTX_set_key_length(context, (int)key_length) != 1) goto done;
    if (EVP_DecryptInit_ex2(context, NULL, key, iv_length > 0 ? iv : NULL, NULL) != 1) goto done;
    if (EVP_DecryptUpdate(context, output, &updated, input, (int)input_length) != 1) {
        result = COFFER_LIBCRYPTO_BAD_DECRYPT;
        goto done;
    }
    if (EVP_DecryptFinal_ex(context, output + updated, &finished) != 1) {
        result = COFFER_LIBCRYPTO_BAD_DECRYPT;
        goto done;
    }
    *output_length = (size_t)updated + (size_t)finished;
    result = COFFER_LIBCRYPTO_OK;

done:
    if (result != COFFER_LIBCRYPTO_OK && updated > 0) OPENSSL_cleanse(output, (size_t)updated);
    EVP_CIPHER_CTX_free(context); /* clears the key schedule */
    EVP_CIPHER_free(cipher);
    if (provider != NULL) OSSL_PROVIDER_unload(provider);
    OSSL_LIB_CTX_free(library);
    ERR_clear_error();
    return result;
}
