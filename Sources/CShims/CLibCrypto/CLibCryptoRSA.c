#include "CLibCryptoRSA.h"

#include <limits.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include "CLibCryptoLoader.h"  // after every other header: libcrypto loaded on first use

struct coffer_rsa_key {
    EVP_PKEY *key;
};

static coffer_rsa_key *wrap(EVP_PKEY *key) {
    if (key == NULL) return NULL;
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) {
        EVP_PKEY_free(key);
        return NULL;
    }
    coffer_rsa_key *wrapped = OPENSSL_zalloc(sizeof(coffer_rsa_key));
    if (wrapped == NULL) {
        EVP_PKEY_free(key);
        return NULL;
    }
    wrapped->key = key;
    return wrapped;
}

// Every entry point leaves the thread's OpenSSL error queue empty.
static coffer_rsa_key *finish_key(coffer_rsa_key *key) {
    ERR_clear_error();
    return key;
}

static int finish(int result) {
    ERR_clear_error();
    return result;
}

coffer_rsa_key *coffer_rsa_generate(int bits) {
    if (bits < 512 || bits > 16384) return NULL;
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (context != NULL && EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1) {
        if (EVP_PKEY_generate(context, &key) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return finish_key(wrap(key));
}

// `key` when libcrypto's `check` passes it; NULL (and `key` freed) otherwise.
static EVP_PKEY *passing(EVP_PKEY *key, int (*check)(EVP_PKEY_CTX *)) {
    if (key == NULL) return NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int passed = context != NULL && check(context) == 1;
    EVP_PKEY_CTX_free(context);
    if (passed) return key;
    EVP_PKEY_free(key);
    return NULL;
}

// `key` when its numbers agree (n = p·q, d the inverse of e…), as Apple's import and swift-crypto check.
static EVP_PKEY *consistent(EVP_PKEY *key) { return passing(key, EVP_PKEY_pairwise_check); }

// `key` when its public numbers are sound (n odd and not a small prime's multiple, e odd and above 1).
static EVP_PKEY *sound_public(EVP_PKEY *key) { return passing(key, EVP_PKEY_public_check); }

coffer_rsa_key *coffer_rsa_private_from_pkcs1(const uint8_t *der, size_t length) {
    if (length > LONG_MAX) return NULL;
    const unsigned char *cursor = der;
    EVP_PKEY *key = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &cursor, (long)length);
    if (key != NULL && cursor != der + length) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    return finish_key(wrap(consistent(key)));
}

coffer_rsa_key *coffer_rsa_private_from_pkcs8(const uint8_t *der, size_t length) {
    if (length > LONG_MAX) return NULL;
    const unsigned char *cursor = der;
    PKCS8_PRIV_KEY_INFO *info = d2i_PKCS8_PRIV_KEY_INFO(NULL, &cursor, (long)length);
    EVP_PKEY *key = NULL;
    if (info != NULL && cursor == der + length) key = EVP_PKCS82PKEY(info);
    PKCS8_PRIV_KEY_INFO_free(info);  // clears the key bytes it held
    return finish_key(wrap(consistent(key)));
}

coffer_rsa_key *coffer_rsa_public_from_der(const uint8_t *der, size_t length) {
    if (length > LONG_MAX) return NULL;
    const unsigned char *cursor = der;
    EVP_PKEY *key = d2i_PublicKey(EVP_PKEY_RSA, NULL, &cursor, (long)length);
    if (key == NULL || cursor != der + length) {
        EVP_PKEY_free(key);
        cursor = der;
        key = d2i_PUBKEY(NULL, &cursor, (long)length);
        if (key != NULL && cursor != der + length) {
            EVP_PKEY_free(key);
            key = NULL;
        }
    }
    return finish_key(wrap(key));
}

coffer_rsa_key *coffer_rsa_from_components(const uint8_t *n, size_t n_length, const uint8_t *e, size_t e_length,
                                           const uint8_t *d, size_t d_length, const uint8_t *p, size_t p_length,
                                           const uint8_t *q, size_t q_length, const uint8_t *coefficient,
                                           size_t coefficient_length) {
    if (n_length > INT_MAX || e_length > INT_MAX || d_length > INT_MAX || p_length > INT_MAX || q_length > INT_MAX
        || coefficient_length > INT_MAX) {
        return NULL;
    }
    int private_key = d != NULL;
    BN_CTX *numbers = BN_CTX_secure_new();
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, (int)e_length, NULL);
    BIGNUM *private_exponent = private_key ? BN_secure_new() : NULL;
    BIGNUM *prime_p = private_key ? BN_secure_new() : NULL;
    BIGNUM *prime_q = private_key ? BN_secure_new() : NULL;
    BIGNUM *inverse = private_key ? BN_secure_new() : NULL;
    BIGNUM *exponent_p = private_key ? BN_secure_new() : NULL;
    BIGNUM *exponent_q = private_key ? BN_secure_new() : NULL;
    BIGNUM *less_one = private_key ? BN_secure_new() : NULL;
    int ready = numbers != NULL && modulus != NULL && exponent != NULL;
    if (ready && private_key) {
        ready = private_exponent != NULL && prime_p != NULL && prime_q != NULL && inverse != NULL && exponent_p != NULL
            && exponent_q != NULL && less_one != NULL && BN_bin2bn(d, (int)d_length, private_exponent) != NULL
            && BN_bin2bn(p, (int)p_length, prime_p) != NULL && BN_bin2bn(q, (int)q_length, prime_q) != NULL
            && BN_bin2bn(coefficient, (int)coefficient_length, inverse) != NULL
            && BN_sub(less_one, prime_p, BN_value_one()) == 1 && BN_mod(exponent_p, private_exponent, less_one, numbers) == 1
            && BN_sub(less_one, prime_q, BN_value_one()) == 1 && BN_mod(exponent_q, private_exponent, less_one, numbers) == 1
            && BN_mod_inverse(less_one, prime_q, prime_p, numbers) != NULL && BN_cmp(less_one, inverse) == 0;
    }
    OSSL_PARAM_BLD *builder = ready ? OSSL_PARAM_BLD_new() : NULL;
    OSSL_PARAM *parameters = NULL;
    if (builder != NULL && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) == 1
        && (!private_key
            || (OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_D, private_exponent) == 1
                && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_FACTOR1, prime_p) == 1
                && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_FACTOR2, prime_q) == 1
                && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_EXPONENT1, exponent_p) == 1
                && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_EXPONENT2, exponent_q) == 1
                && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, inverse) == 1))) {
        parameters = OSSL_PARAM_BLD_to_param(builder);
    }
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = parameters != NULL ? EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL) : NULL;
    if (context != NULL && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, private_key ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, parameters) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(parameters);  // the private numbers came from secure BIGNUMs: their copies sit in secure memory, cleared when freed
    OSSL_PARAM_BLD_free(builder);
    BN_free(modulus);
    BN_free(exponent);
    BN_clear_free(private_exponent);
    BN_clear_free(prime_p);
    BN_clear_free(prime_q);
    BN_clear_free(inverse);
    BN_clear_free(exponent_p);
    BN_clear_free(exponent_q);
    BN_clear_free(less_one);
    BN_CTX_free(numbers);
    return finish_key(wrap(private_key ? consistent(key) : sound_public(key)));
}

coffer_rsa_key *coffer_rsa_public_of(const coffer_rsa_key *key) {
    long length = coffer_rsa_pkcs1(key, 0, NULL, 0);
    if (length <= 0) return NULL;
    uint8_t *der = OPENSSL_malloc((size_t)length);
    if (der == NULL) return NULL;
    coffer_rsa_key *result = NULL;
    if (coffer_rsa_pkcs1(key, 0, der, (size_t)length) == length) {
        result = coffer_rsa_public_from_der(der, (size_t)length);
    }
    OPENSSL_free(der);
    return result;
}

void coffer_rsa_free(coffer_rsa_key *key) {
    if (key == NULL) return;
    EVP_PKEY_free(key->key);  // RSA_free clears the private numbers
    OPENSSL_free(key);
}

int coffer_rsa_bits(const coffer_rsa_key *key) {
    return EVP_PKEY_get_bits(key->key);
}

int coffer_rsa_is_private(const coffer_rsa_key *key) {
    BIGNUM *d = NULL;
    int found = EVP_PKEY_get_bn_param(key->key, OSSL_PKEY_PARAM_RSA_D, &d) == 1 && d != NULL;
    BN_clear_free(d);
    return finish(found);
}

long coffer_rsa_pkcs1(const coffer_rsa_key *key, int private_key, uint8_t *output, size_t capacity) {
    if (private_key && !coffer_rsa_is_private(key)) return -1;
    int length = private_key ? i2d_PrivateKey(key->key, NULL) : i2d_PublicKey(key->key, NULL);
    if (length <= 0) return finish(-1);
    if (output == NULL) return finish(length);
    if ((size_t)length > capacity) return finish(-1);
    unsigned char *cursor = output;
    int written = private_key ? i2d_PrivateKey(key->key, &cursor) : i2d_PublicKey(key->key, &cursor);
    return finish(written == length ? length : -1);
}

long coffer_rsa_modulus(const coffer_rsa_key *key, uint8_t *output, size_t capacity) {
    int length = (coffer_rsa_bits(key) + 7) / 8;
    if ((size_t)length > capacity) return -1;
    BIGNUM *n = NULL;
    long result = -1;
    if (EVP_PKEY_get_bn_param(key->key, OSSL_PKEY_PARAM_RSA_N, &n) == 1 && BN_bn2binpad(n, output, length) == length) {
        result = length;
    }
    BN_free(n);
    return finish((int)result);
}

long coffer_rsa_public_exponent(const coffer_rsa_key *key, uint8_t *output, size_t capacity) {
    BIGNUM *e = NULL;
    long result = -1;
    if (EVP_PKEY_get_bn_param(key->key, OSSL_PKEY_PARAM_RSA_E, &e) == 1) {
        int length = BN_num_bytes(e);
        if ((size_t)length <= capacity && BN_bn2bin(e, output) == length) result = length;
    }
    BN_free(e);
    return finish((int)result);
}

long coffer_rsa_subject_public_key_info(const coffer_rsa_key *key, uint8_t *output, size_t capacity) {
    int length = i2d_PUBKEY(key->key, NULL);
    if (length <= 0) return finish(-1);
    if (output == NULL) return finish(length);
    if ((size_t)length > capacity) return finish(-1);
    unsigned char *cursor = output;
    return finish(i2d_PUBKEY(key->key, &cursor) == length ? length : -1);
}

// Sets `padding` (and the digests it uses) on a context made ready for an operation.
static int configure(EVP_PKEY_CTX *context, coffer_rsa_padding padding, const char *digest, int signing, EVP_MD **fetched) {
    *fetched = NULL;
    if (digest != NULL) {
        *fetched = EVP_MD_fetch(NULL, digest, NULL);
        if (*fetched == NULL) return 0;
    }
    switch (padding) {
    case COFFER_RSA_NO_PADDING:
        return digest == NULL && EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1;
    case COFFER_RSA_PKCS1:
        if (EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) != 1) return 0;
        if (!signing) {
            // OpenSSL 3.2 answers a bad PKCS#1 v1.5 block with a random message; Apple reports an error.
            (void)EVP_PKEY_CTX_ctrl_str(context, "rsa_pkcs1_implicit_rejection", "0");
            return digest == NULL;
        }
        return *fetched == NULL || EVP_PKEY_CTX_set_signature_md(context, *fetched) == 1;
    case COFFER_RSA_PSS:
        return signing && *fetched != NULL && EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1 &&
               EVP_PKEY_CTX_set_signature_md(context, *fetched) == 1 &&
               EVP_PKEY_CTX_set_rsa_mgf1_md(context, *fetched) == 1 &&
               EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST) == 1;
    case COFFER_RSA_OAEP:
        return !signing && *fetched != NULL && EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1 &&
               EVP_PKEY_CTX_set_rsa_oaep_md(context, *fetched) == 1 && EVP_PKEY_CTX_set_rsa_mgf1_md(context, *fetched) == 1;
    }
    return 0;
}

typedef enum { SIGN, VERIFY, ENCRYPT, DECRYPT } operation;

static int run(const coffer_rsa_key *key, operation kind, coffer_rsa_padding padding, const char *digest,
               const uint8_t *input, size_t input_length, const uint8_t *other, size_t other_length,
               uint8_t *output, size_t *output_length) {
    int result = COFFER_RSA_FAILED;
    EVP_MD *fetched = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key->key, NULL);
    if (context == NULL) goto done;
    int ready = 0;
    switch (kind) {
    case SIGN: ready = EVP_PKEY_sign_init(context); break;
    case VERIFY: ready = EVP_PKEY_verify_init(context); break;
    case ENCRYPT: ready = EVP_PKEY_encrypt_init(context); break;
    case DECRYPT: ready = EVP_PKEY_decrypt_init(context); break;
    }
    if (ready != 1 || !configure(context, padding, digest, kind == SIGN || kind == VERIFY, &fetched)) goto done;
    size_t capacity = output_length != NULL ? *output_length : 0;
    size_t block = (size_t)(coffer_rsa_bits(key) + 7) / 8;
    if (kind != VERIFY && capacity < block) goto done;
    int outcome = 0;
    switch (kind) {
    case SIGN: outcome = EVP_PKEY_sign(context, output, output_length, input, input_length); break;
    case VERIFY: outcome = EVP_PKEY_verify(context, other, other_length, input, input_length); break;
    case ENCRYPT: outcome = EVP_PKEY_encrypt(context, output, output_length, input, input_length); break;
    case DECRYPT: outcome = EVP_PKEY_decrypt(context, output, output_length, input, input_length); break;
    }
    result = outcome == 1 ? COFFER_RSA_OK : COFFER_RSA_BAD_INPUT;
done:
    EVP_PKEY_CTX_free(context);
    EVP_MD_free(fetched);
    if (result != COFFER_RSA_OK && output_length != NULL) *output_length = 0;
    return finish(result);
}

int coffer_rsa_sign(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                    const uint8_t *input, size_t input_length, uint8_t *signature, size_t *signature_length) {
    return run(key, SIGN, padding, digest, input, input_length, NULL, 0, signature, signature_length);
}

int coffer_rsa_verify(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                      const uint8_t *input, size_t input_length, const uint8_t *signature, size_t signature_length) {
    return run(key, VERIFY, padding, digest, input, input_length, signature, signature_length, NULL, NULL);
}

int coffer_rsa_encrypt(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                       const uint8_t *input, size_t input_length, uint8_t *output, size_t *output_length) {
    return run(key, ENCRYPT, padding, digest, input, input_length, NULL, 0, output, output_length);
}

int coffer_rsa_decrypt(const coffer_rsa_key *key, coffer_rsa_padding padding, const char *digest,
                       const uint8_t *input, size_t input_length, uint8_t *output, size_t *output_length) {
    return run(key, DECRYPT, padding, digest, input, input_length, NULL, 0, output, output_length);
}
