#ifndef C_LIBCRYPTO_LOADER_H
#define C_LIBCRYPTO_LOADER_H

// libcrypto, loaded when it is first used rather than when the program starts.
//
// A C file that calls libcrypto includes this header after OpenSSL's. Each function it may call is then a
// pointer in one table, filled by `dlopen` of the libcrypto this was built against and `dlsym`, once, on the
// first call: a program that never reaches libcrypto (a lookup through cofferd) does not load it, and does
// not pay for binding its several thousand symbols at every start. A function missing from this list does
// not compile out silently: the C file then links against a symbol no library provides.
//
// Not for Swift: the wrappers the C targets export are what Swift calls.

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/macros.h>
#include <openssl/opensslv.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

/// The libcrypto functions Coffer's C targets call.
#define COFFER_LIBCRYPTO_FUNCTIONS(X) \
    X(BN_CTX_free) \
    X(BN_CTX_secure_new) \
    X(BN_bin2bn) \
    X(BN_bn2bin) \
    X(BN_bn2binpad) \
    X(BN_clear_free) \
    X(BN_cmp) \
    X(BN_div) \
    X(BN_free) \
    X(BN_mod_exp_mont_consttime) \
    X(BN_mod_inverse) \
    X(BN_num_bits) \
    X(BN_secure_new) \
    X(BN_set_flags) \
    X(BN_sub) \
    X(BN_value_one) \
    X(CRYPTO_free) \
    X(CRYPTO_malloc) \
    X(CRYPTO_zalloc) \
    X(ERR_clear_error) \
    X(EVP_CIPHER_CTX_ctrl) \
    X(EVP_CIPHER_CTX_free) \
    X(EVP_CIPHER_CTX_get_key_length) \
    X(EVP_CIPHER_CTX_new) \
    X(EVP_CIPHER_CTX_set_key_length) \
    X(EVP_CIPHER_fetch) \
    X(EVP_CIPHER_free) \
    X(EVP_CIPHER_get_iv_length) \
    X(EVP_DecryptFinal_ex) \
    X(EVP_DecryptInit_ex2) \
    X(EVP_DecryptUpdate) \
    X(EVP_EncryptFinal_ex) \
    X(EVP_EncryptInit_ex) \
    X(EVP_EncryptUpdate) \
    X(EVP_MD_fetch) \
    X(EVP_MD_free) \
    X(EVP_PKCS82PKEY) \
    X(EVP_PKEY_CTX_ctrl_str) \
    X(EVP_PKEY_CTX_free) \
    X(EVP_PKEY_CTX_new_from_name) \
    X(EVP_PKEY_CTX_new_from_pkey) \
    X(EVP_PKEY_CTX_set_rsa_keygen_bits) \
    X(EVP_PKEY_CTX_set_rsa_mgf1_md) \
    X(EVP_PKEY_CTX_set_rsa_oaep_md) \
    X(EVP_PKEY_CTX_set_rsa_padding) \
    X(EVP_PKEY_CTX_set_rsa_pss_saltlen) \
    X(EVP_PKEY_CTX_set_signature_md) \
    X(EVP_PKEY_decrypt) \
    X(EVP_PKEY_decrypt_init) \
    X(EVP_PKEY_encrypt) \
    X(EVP_PKEY_encrypt_init) \
    X(EVP_PKEY_free) \
    X(EVP_PKEY_fromdata) \
    X(EVP_PKEY_fromdata_init) \
    X(EVP_PKEY_generate) \
    X(EVP_PKEY_get_base_id) \
    X(EVP_PKEY_get_bits) \
    X(EVP_PKEY_get_bn_param) \
    X(EVP_PKEY_keygen_init) \
    X(EVP_PKEY_pairwise_check) \
    X(EVP_PKEY_public_check) \
    X(EVP_PKEY_sign) \
    X(EVP_PKEY_sign_init) \
    X(EVP_PKEY_verify) \
    X(EVP_PKEY_verify_init) \
    X(EVP_aes_256_gcm) \
    X(OPENSSL_cleanse) \
    X(OSSL_LIB_CTX_free) \
    X(OSSL_LIB_CTX_new) \
    X(OSSL_PARAM_BLD_free) \
    X(OSSL_PARAM_BLD_new) \
    X(OSSL_PARAM_BLD_push_BN) \
    X(OSSL_PARAM_BLD_to_param) \
    X(OSSL_PARAM_free) \
    X(OSSL_PROVIDER_load) \
    X(OSSL_PROVIDER_unload) \
    X(PKCS8_PRIV_KEY_INFO_free) \
    X(SHA256) \
    X(SHA256_Final) \
    X(SHA256_Init) \
    X(SHA256_Update) \
    X(d2i_PKCS8_PRIV_KEY_INFO) \
    X(d2i_PUBKEY) \
    X(d2i_PrivateKey) \
    X(d2i_PublicKey) \
    X(i2d_PUBKEY) \
    X(i2d_PrivateKey) \
    X(i2d_PublicKey)

/// One pointer per function, of the function's own type.
struct coffer_libcrypto {
#define COFFER_LIBCRYPTO_FIELD(name) __typeof__(&name) name;
    COFFER_LIBCRYPTO_FUNCTIONS(COFFER_LIBCRYPTO_FIELD)
#undef COFFER_LIBCRYPTO_FIELD
};

/// The table, loading libcrypto on the first call (thread-safe). A libcrypto that cannot be loaded, or lacks a
/// function, ends the process with a message naming it: the same outcome as the dynamic loader's at start,
/// before this table existed.
const struct coffer_libcrypto *coffer_libcrypto(void);

#ifndef COFFER_LIBCRYPTO_LOADER_IMPLEMENTATION
#define BN_CTX_free (coffer_libcrypto()->BN_CTX_free)
#define BN_CTX_secure_new (coffer_libcrypto()->BN_CTX_secure_new)
#define BN_bin2bn (coffer_libcrypto()->BN_bin2bn)
#define BN_bn2bin (coffer_libcrypto()->BN_bn2bin)
#define BN_bn2binpad (coffer_libcrypto()->BN_bn2binpad)
#define BN_clear_free (coffer_libcrypto()->BN_clear_free)
#define BN_cmp (coffer_libcrypto()->BN_cmp)
#define BN_div (coffer_libcrypto()->BN_div)
#define BN_free (coffer_libcrypto()->BN_free)
#define BN_mod_exp_mont_consttime (coffer_libcrypto()->BN_mod_exp_mont_consttime)
#define BN_mod_inverse (coffer_libcrypto()->BN_mod_inverse)
#define BN_num_bits (coffer_libcrypto()->BN_num_bits)
#define BN_secure_new (coffer_libcrypto()->BN_secure_new)
#define BN_set_flags (coffer_libcrypto()->BN_set_flags)
#define BN_sub (coffer_libcrypto()->BN_sub)
#define BN_value_one (coffer_libcrypto()->BN_value_one)
#define CRYPTO_free (coffer_libcrypto()->CRYPTO_free)
#define CRYPTO_malloc (coffer_libcrypto()->CRYPTO_malloc)
#define CRYPTO_zalloc (coffer_libcrypto()->CRYPTO_zalloc)
#define ERR_clear_error (coffer_libcrypto()->ERR_clear_error)
#define EVP_CIPHER_CTX_free (coffer_libcrypto()->EVP_CIPHER_CTX_free)
#define EVP_aes_256_gcm (coffer_libcrypto()->EVP_aes_256_gcm)
#define EVP_EncryptUpdate (coffer_libcrypto()->EVP_EncryptUpdate)
#define EVP_EncryptInit_ex (coffer_libcrypto()->EVP_EncryptInit_ex)
#define EVP_EncryptFinal_ex (coffer_libcrypto()->EVP_EncryptFinal_ex)
#define EVP_CIPHER_CTX_ctrl (coffer_libcrypto()->EVP_CIPHER_CTX_ctrl)
#define EVP_CIPHER_CTX_get_key_length (coffer_libcrypto()->EVP_CIPHER_CTX_get_key_length)
#define EVP_CIPHER_CTX_new (coffer_libcrypto()->EVP_CIPHER_CTX_new)
#define EVP_CIPHER_CTX_set_key_length (coffer_libcrypto()->EVP_CIPHER_CTX_set_key_length)
#define EVP_CIPHER_fetch (coffer_libcrypto()->EVP_CIPHER_fetch)
#define EVP_CIPHER_free (coffer_libcrypto()->EVP_CIPHER_free)
#define EVP_CIPHER_get_iv_length (coffer_libcrypto()->EVP_CIPHER_get_iv_length)
#define EVP_DecryptFinal_ex (coffer_libcrypto()->EVP_DecryptFinal_ex)
#define EVP_DecryptInit_ex2 (coffer_libcrypto()->EVP_DecryptInit_ex2)
#define EVP_DecryptUpdate (coffer_libcrypto()->EVP_DecryptUpdate)
#define EVP_MD_fetch (coffer_libcrypto()->EVP_MD_fetch)
#define EVP_MD_free (coffer_libcrypto()->EVP_MD_free)
#define EVP_PKCS82PKEY (coffer_libcrypto()->EVP_PKCS82PKEY)
#define EVP_PKEY_CTX_ctrl_str (coffer_libcrypto()->EVP_PKEY_CTX_ctrl_str)
#define EVP_PKEY_CTX_free (coffer_libcrypto()->EVP_PKEY_CTX_free)
#define EVP_PKEY_CTX_new_from_name (coffer_libcrypto()->EVP_PKEY_CTX_new_from_name)
#define EVP_PKEY_CTX_new_from_pkey (coffer_libcrypto()->EVP_PKEY_CTX_new_from_pkey)
#define EVP_PKEY_CTX_set_rsa_keygen_bits (coffer_libcrypto()->EVP_PKEY_CTX_set_rsa_keygen_bits)
#define EVP_PKEY_CTX_set_rsa_mgf1_md (coffer_libcrypto()->EVP_PKEY_CTX_set_rsa_mgf1_md)
#define EVP_PKEY_CTX_set_rsa_oaep_md (coffer_libcrypto()->EVP_PKEY_CTX_set_rsa_oaep_md)
#define EVP_PKEY_CTX_set_rsa_padding (coffer_libcrypto()->EVP_PKEY_CTX_set_rsa_padding)
#define EVP_PKEY_CTX_set_rsa_pss_saltlen (coffer_libcrypto()->EVP_PKEY_CTX_set_rsa_pss_saltlen)
#define EVP_PKEY_CTX_set_signature_md (coffer_libcrypto()->EVP_PKEY_CTX_set_signature_md)
#define EVP_PKEY_decrypt (coffer_libcrypto()->EVP_PKEY_decrypt)
#define EVP_PKEY_decrypt_init (coffer_libcrypto()->EVP_PKEY_decrypt_init)
#define EVP_PKEY_encrypt (coffer_libcrypto()->EVP_PKEY_encrypt)
#define EVP_PKEY_encrypt_init (coffer_libcrypto()->EVP_PKEY_encrypt_init)
#define EVP_PKEY_free (coffer_libcrypto()->EVP_PKEY_free)
#define EVP_PKEY_fromdata (coffer_libcrypto()->EVP_PKEY_fromdata)
#define EVP_PKEY_fromdata_init (coffer_libcrypto()->EVP_PKEY_fromdata_init)
#define EVP_PKEY_generate (coffer_libcrypto()->EVP_PKEY_generate)
#define EVP_PKEY_get_base_id (coffer_libcrypto()->EVP_PKEY_get_base_id)
#define EVP_PKEY_get_bits (coffer_libcrypto()->EVP_PKEY_get_bits)
#define EVP_PKEY_get_bn_param (coffer_libcrypto()->EVP_PKEY_get_bn_param)
#define EVP_PKEY_keygen_init (coffer_libcrypto()->EVP_PKEY_keygen_init)
#define EVP_PKEY_pairwise_check (coffer_libcrypto()->EVP_PKEY_pairwise_check)
#define EVP_PKEY_public_check (coffer_libcrypto()->EVP_PKEY_public_check)
#define EVP_PKEY_sign (coffer_libcrypto()->EVP_PKEY_sign)
#define EVP_PKEY_sign_init (coffer_libcrypto()->EVP_PKEY_sign_init)
#define EVP_PKEY_verify (coffer_libcrypto()->EVP_PKEY_verify)
#define EVP_PKEY_verify_init (coffer_libcrypto()->EVP_PKEY_verify_init)
#define OPENSSL_cleanse (coffer_libcrypto()->OPENSSL_cleanse)
#define OSSL_LIB_CTX_free (coffer_libcrypto()->OSSL_LIB_CTX_free)
#define OSSL_LIB_CTX_new (coffer_libcrypto()->OSSL_LIB_CTX_new)
#define OSSL_PARAM_BLD_free (coffer_libcrypto()->OSSL_PARAM_BLD_free)
#define OSSL_PARAM_BLD_new (coffer_libcrypto()->OSSL_PARAM_BLD_new)
#define OSSL_PARAM_BLD_push_BN (coffer_libcrypto()->OSSL_PARAM_BLD_push_BN)
#define OSSL_PARAM_BLD_to_param (coffer_libcrypto()->OSSL_PARAM_BLD_to_param)
#define OSSL_PARAM_free (coffer_libcrypto()->OSSL_PARAM_free)
#define OSSL_PROVIDER_load (coffer_libcrypto()->OSSL_PROVIDER_load)
#define OSSL_PROVIDER_unload (coffer_libcrypto()->OSSL_PROVIDER_unload)
#define PKCS8_PRIV_KEY_INFO_free (coffer_libcrypto()->PKCS8_PRIV_KEY_INFO_free)
#define SHA256 (coffer_libcrypto()->SHA256)
#define SHA256_Final (coffer_libcrypto()->SHA256_Final)
#define SHA256_Init (coffer_libcrypto()->SHA256_Init)
#define SHA256_Update (coffer_libcrypto()->SHA256_Update)
#define d2i_PKCS8_PRIV_KEY_INFO (coffer_libcrypto()->d2i_PKCS8_PRIV_KEY_INFO)
#define d2i_PUBKEY (coffer_libcrypto()->d2i_PUBKEY)
#define d2i_PrivateKey (coffer_libcrypto()->d2i_PrivateKey)
#define d2i_PublicKey (coffer_libcrypto()->d2i_PublicKey)
#define i2d_PUBKEY (coffer_libcrypto()->i2d_PUBKEY)
#define i2d_PrivateKey (coffer_libcrypto()->i2d_PrivateKey)
#define i2d_PublicKey (coffer_libcrypto()->i2d_PublicKey)
#endif

#endif
