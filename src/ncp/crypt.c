/*
 * crypt.c - NetWare's password hash (see ncp_crypt.h). The algorithm and
 * its constant tables are the ones published in Dr. Dobb's Journal 11/93
 * ("Undocumented Corner") and used by ncpfs and mars_nwe (nwcrypt.c);
 * this is a fresh implementation of that description. docs/ncp.md says
 * where the test vectors in tests/unit/test_ncp_crypt.c come from.
 */
#include "ipxlab/ncp_crypt.h"

#include <string.h>

#include "ipxlab/bytes.h"

/* Nibble substitution of the final step of the hash. */
static const uint8_t nibble_of[256] = {
	7, 8, 0, 8, 6, 4, 14, 4, 5, 12, 1, 7, 11, 15, 10, 8,
	15, 8, 12, 12, 9, 4, 1, 14, 4, 6, 2, 4, 0, 10, 11, 9,
	2, 15, 11, 1, 13, 2, 1, 9, 5, 14, 7, 0, 0, 2, 6, 6,
	0, 7, 3, 8, 2, 9, 3, 15, 7, 15, 12, 15, 6, 4, 10, 0,
	2, 3, 10, 11, 13, 8, 3, 10, 1, 7, 12, 15, 1, 8, 9, 13,
	9, 1, 9, 4, 14, 4, 12, 5, 5, 12, 8, 11, 2, 3, 9, 14,
	7, 7, 6, 9, 14, 15, 12, 8, 13, 1, 10, 6, 14, 13, 0, 7,
	7, 10, 0, 1, 15, 5, 4, 11, 7, 11, 14, 12, 9, 5, 13, 1,
	11, 13, 1, 3, 5, 13, 14, 6, 3, 0, 11, 11, 15, 3, 6, 4,
	9, 13, 10, 3, 1, 4, 9, 4, 8, 3, 11, 14, 5, 0, 5, 2,
	12, 11, 13, 5, 13, 5, 13, 2, 13, 9, 10, 12, 10, 0, 11, 3,
	5, 3, 6, 9, 5, 1, 14, 14, 0, 14, 8, 2, 13, 2, 2, 0,
	4, 15, 8, 5, 9, 6, 8, 6, 11, 10, 11, 15, 0, 7, 2, 8,
	12, 7, 3, 10, 1, 4, 2, 5, 15, 7, 10, 12, 14, 5, 9, 3,
	14, 7, 1, 2, 14, 1, 15, 4, 10, 6, 12, 6, 15, 4, 3, 0,
	12, 0, 3, 6, 15, 8, 7, 11, 2, 13, 12, 6, 10, 10, 8, 13,
};

/* The 32 mixing constants (also the padding of a short password). */
static const uint8_t mix[32] = {
	0x48, 0x93, 0x46, 0x67, 0x98, 0x3D, 0xE6, 0x8D,
	0xB7, 0x10, 0x7A, 0x26, 0x5A, 0xB9, 0xB1, 0x35,
	0x6B, 0x0F, 0xD5, 0x70, 0xAE, 0xFB, 0xAD, 0x11,
	0xF4, 0x47, 0xDC, 0xA7, 0xEC, 0xCF, 0x50, 0xC0,
};

/* The change-password coding: 16 rows of a nibble permutation, two per
 * byte position (low nibble, high nibble), then the nibble order. */
static const uint8_t perm[17][16] = {
	{ 15, 8, 5, 7, 12, 2, 14, 9, 0, 1, 6, 13, 3, 4, 11, 10 },
	{ 2, 12, 14, 6, 15, 0, 1, 8, 13, 3, 10, 4, 9, 11, 5, 7 },
	{ 5, 2, 9, 15, 12, 4, 13, 0, 14, 10, 6, 8, 11, 1, 3, 7 },
	{ 15, 13, 2, 6, 7, 8, 5, 9, 0, 4, 12, 3, 1, 10, 11, 14 },
	{ 5, 14, 2, 11, 13, 10, 7, 0, 8, 6, 4, 1, 15, 12, 3, 9 },
	{ 8, 2, 15, 10, 5, 9, 6, 12, 0, 11, 1, 13, 7, 3, 4, 14 },
	{ 14, 8, 0, 9, 4, 11, 2, 7, 12, 3, 10, 5, 13, 1, 6, 15 },
	{ 1, 4, 8, 10, 13, 11, 7, 14, 5, 15, 3, 9, 0, 2, 6, 12 },
	{ 5, 3, 12, 8, 11, 2, 14, 10, 4, 1, 13, 0, 6, 7, 15, 9 },
	{ 6, 0, 11, 14, 13, 4, 12, 15, 7, 2, 8, 10, 1, 5, 3, 9 },
	{ 11, 5, 10, 14, 15, 1, 12, 0, 6, 4, 2, 9, 3, 13, 7, 8 },
	{ 7, 2, 10, 0, 14, 8, 15, 4, 12, 11, 9, 1, 5, 13, 3, 6 },
	{ 7, 4, 15, 9, 5, 1, 12, 11, 0, 3, 8, 14, 2, 10, 6, 13 },
	{ 9, 4, 8, 0, 10, 3, 1, 12, 5, 15, 7, 2, 11, 14, 6, 13 },
	{ 9, 5, 4, 7, 14, 8, 3, 1, 13, 11, 12, 2, 0, 15, 6, 10 },
	{ 9, 10, 11, 13, 5, 3, 15, 0, 1, 12, 8, 7, 6, 4, 14, 2 },
	{ 3, 14, 15, 2, 13, 12, 4, 5, 9, 6, 0, 1, 11, 7, 10, 8 },
};

/* The core: 'salt' (4 bytes) and data folded into 32 bytes, mixed twice
 * over, then squeezed to 16 through the nibble table. */
static void hash32(const uint8_t salt[4], const uint8_t *data, size_t len,
		   uint8_t out[16])
{
	uint8_t t[32] = { 0 };
	size_t at = 0;
	unsigned acc = 0;

	while (len > 0 && data[len - 1] == 0)
		len--;
	for (; len - at >= 32; at += 32)
		for (int i = 0; i < 32; i++)
			t[i] ^= data[at + i];
	if (len > at) {
		/* The rest repeated, each pass followed by one constant. */
		size_t k = at;

		for (int i = 0; i < 32; i++) {
			if (k == len) {
				t[i] ^= mix[i];
				k = at;
			} else {
				t[i] ^= data[k++];
			}
		}
	}
	for (int i = 0; i < 32; i++)
		t[i] ^= salt[i % 4];
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 32; i++) {
			uint8_t b = (uint8_t)((t[i] + acc) ^
					      (t[(i + acc) % 32] - mix[i]));

			acc += b;
			t[i] = b;
		}
	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)(nibble_of[t[2 * i]] |
				   nibble_of[t[2 * i + 1]] << 4);
}

void ncp_pw_hash(uint32_t id, const void *pw, size_t len,
		 uint8_t out[NCP_HASH_LEN])
{
	uint8_t salt[4];

	ipx_put32(salt, id);
	hash32(salt, pw, len, out);
}

void ncp_pw_key_answer(const uint8_t key[NCP_KEY_LEN],
		       const uint8_t hash[NCP_HASH_LEN],
		       uint8_t out[NCP_KEY_LEN])
{
	uint8_t k[32];

	hash32(key, hash, NCP_HASH_LEN, k);
	hash32(key + 4, hash, NCP_HASH_LEN, k + 16);
	for (int i = 0; i < 16; i++)
		k[i] ^= k[31 - i];
	for (int i = 0; i < 8; i++)
		out[i] = k[i] ^ k[15 - i];
}

/* The 8 bytes as a little-endian number turned left by 4 bits. */
static void turn4(uint8_t b[8])
{
	uint8_t top = b[7];

	for (int i = 7; i > 0; i--)
		b[i] = (uint8_t)(b[i] << 4 | b[i - 1] >> 4);
	b[0] = (uint8_t)(b[0] << 4 | top >> 4);
}

static uint8_t nib(const uint8_t *b, int n)
{
	return n & 1 ? b[n / 2] >> 4 : b[n / 2] & 15;
}

static void encode8(const uint8_t old[8], const uint8_t in[8], uint8_t out[8])
{
	uint8_t o[8], c[8];

	memcpy(o, old, 8);
	memcpy(c, in, 8);
	for (int round = 0; round < 16; round++) {
		for (int i = 0; i < 8; i++) {
			uint8_t x = c[i] ^ o[i];

			c[i] = (uint8_t)(perm[2 * i][x & 15] |
					 perm[2 * i + 1][x >> 4] << 4);
		}
		turn4(o);
		memset(out, 0, 8);
		for (int n = 0; n < 16; n++)
			out[n / 2] |= (uint8_t)(nib(c, perm[16][n]) <<
						(n & 1 ? 4 : 0));
		memcpy(c, out, 8);
	}
}

static uint8_t unperm(const uint8_t *row, uint8_t v)
{
	for (uint8_t i = 0; i < 16; i++)
		if (row[i] == v)
			return i;
	return 0;	/* every row is a permutation: not reached */
}

static void decode8(const uint8_t old[8], const uint8_t in[8], uint8_t out[8])
{
	uint8_t o[16][8], c[8];

	/* The old hash as each round used it. */
	memcpy(o[0], old, 8);
	for (int r = 1; r < 16; r++) {
		memcpy(o[r], o[r - 1], 8);
		turn4(o[r]);
	}
	memcpy(c, in, 8);
	for (int round = 15; round >= 0; round--) {
		uint8_t s[8] = { 0 };

		for (int n = 0; n < 16; n++) {
			int to = perm[16][n];

			s[to / 2] |= (uint8_t)(nib(c, n) << (to & 1 ? 4 : 0));
		}
		for (int i = 0; i < 8; i++)
			c[i] = (uint8_t)((unperm(perm[2 * i], s[i] & 15) |
					  unperm(perm[2 * i + 1], s[i] >> 4)
						  << 4) ^ o[round][i]);
	}
	memcpy(out, c, 8);
}

void ncp_pw_new_encode(const uint8_t old_hash[NCP_HASH_LEN],
		       const uint8_t new_hash[NCP_HASH_LEN],
		       uint8_t out[NCP_HASH_LEN])
{
	encode8(old_hash, new_hash, out);
	encode8(old_hash + 8, new_hash + 8, out + 8);
}

void ncp_pw_new_decode(const uint8_t old_hash[NCP_HASH_LEN],
		       const uint8_t in[NCP_HASH_LEN],
		       uint8_t new_hash[NCP_HASH_LEN])
{
	decode8(old_hash, in, new_hash);
	decode8(old_hash + 8, in + 8, new_hash + 8);
}

uint8_t ncp_pw_new_len_byte(const uint8_t old_hash[NCP_HASH_LEN], size_t len)
{
	if (len > 63)
		len = 63;
	return (uint8_t)(((len ^ old_hash[0] ^ old_hash[1]) & 0x7F) | 0x40);
}

size_t ncp_pw_upper(const char *pw, char *out, size_t cap)
{
	size_t n = 0;

	for (; pw[n] && n + 1 < cap; n++)
		out[n] = pw[n] >= 'a' && pw[n] <= 'z' ? (char)(pw[n] - 32)
						      : pw[n];
	out[n] = '\0';
	return n;
}
