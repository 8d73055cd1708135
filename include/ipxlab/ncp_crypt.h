/*
 * ncp_crypt.h - NetWare's password hash, shared by the NCP client and
 * server (docs/ncp.md, "Encrypted login"): the one-way hash of an object
 * ID and a password into the 16 bytes a server keeps, the 8-byte answer
 * to a login key (0x17 0x17, 0x18, 0x4A) and the encoding of a new
 * password for the keyed change of password (0x17 0x4B). NetWare clients
 * upper-case a password before hashing it; these functions take the bytes
 * as they are.
 */
#ifndef IPXLAB_NCP_CRYPT_H
#define IPXLAB_NCP_CRYPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NCP_KEY_LEN 8
#define NCP_HASH_LEN 16

/* The hash of password bytes pw (len, trailing NULs not counted) for the
 * object 'id' (taken big-endian, as on the wire). */
void ncp_pw_hash(uint32_t id, const void *pw, size_t len,
		 uint8_t out[NCP_HASH_LEN]);
/* The answer to login key 'key' of a client that knows 'hash'. */
void ncp_pw_key_answer(const uint8_t key[NCP_KEY_LEN],
		       const uint8_t hash[NCP_HASH_LEN],
		       uint8_t out[NCP_KEY_LEN]);
/* 0x17 0x4B: the new hash encoded with the old one (two 8-byte halves),
 * and its inverse, as the server undoes it. */
void ncp_pw_new_encode(const uint8_t old_hash[NCP_HASH_LEN],
		       const uint8_t new_hash[NCP_HASH_LEN],
		       uint8_t out[NCP_HASH_LEN]);
void ncp_pw_new_decode(const uint8_t old_hash[NCP_HASH_LEN],
		       const uint8_t in[NCP_HASH_LEN],
		       uint8_t new_hash[NCP_HASH_LEN]);
/* 0x17 0x4B: the byte before the encoded hash, the new password's length
 * (at most 63) mixed with the old hash, 0x40 set (ncpfs). */
uint8_t ncp_pw_new_len_byte(const uint8_t old_hash[NCP_HASH_LEN], size_t len);
/* Upper-case ASCII copy of a password (at most cap - 1 bytes), as
 * NetWare clients send it: its length. */
size_t ncp_pw_upper(const char *pw, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
