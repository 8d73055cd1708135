/*
 * client_rights.c - the client's trustee calls: effective rights (0x16
 * 0x2A), scan, add and delete trustees (0x16 0x0C, 0x0D or 0x27, 0x0E),
 * user names to object IDs and back with Scan Bindery Object (0x17
 * 0x37), and the rights letters SRWCEMFA both ways.
 */
#include <ctype.h>
#include <string.h>

#include "client_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

static const char letters[] = "SRWCEMFA";
static const uint16_t bits[] = {
	NCP_TRUSTEE_SUPER, NCP_TRUSTEE_READ, NCP_TRUSTEE_WRITE,
	NCP_TRUSTEE_CREATE, NCP_TRUSTEE_ERASE, NCP_TRUSTEE_MODIFY,
	NCP_TRUSTEE_SCAN, NCP_TRUSTEE_ACCESS,
};

int ncp_rights_parse(const char *text, uint16_t *out)
{
	*out = 0;
	if (!strcmp(text, "-"))
		return 0;
	if (!*text)
		return -1;
	for (; *text; text++) {
		const char *k = strchr(letters, toupper((unsigned char)*text));

		if (!k)
			return -1;
		*out |= bits[k - letters];
	}
	return 0;
}

void ncp_rights_format(uint16_t rights, char *out, size_t cap)
{
	char s[11];

	s[0] = '[';
	for (size_t i = 0; i < 8; i++)
		s[1 + i] = (rights & bits[i]) ? letters[i] : ' ';
	s[9] = ']';
	s[10] = '\0';
	snprintf(out, cap, "%s", s);
}

/* dh, then a length-prefixed path at b; the bytes, 0 if too long. */
static size_t put_dh_path(const struct ncp_client *cl, uint8_t *b,
			  const char *path)
{
	size_t n = strlen(path);

	if (n > 255)
		return 0;
	b[0] = cl->dh;
	b[1] = (uint8_t)n;
	memcpy(b + 2, path, n);
	return n + 2;
}

int ncp_effective_rights(struct ncp_client *cl, const char *path,
			 uint16_t *rights)
{
	uint8_t b[300], r[8];
	size_t n = put_dh_path(cl, b, path), rl;
	int rc;

	if (!n)
		return IPX_EINVAL;
	rc = ncp_request_sub(cl, 0x16, 0x2A, b, n, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 2)
		return NCP_E_BADREPLY;
	*rights = ipx_get16le(r);
	return 0;
}

int ncp_scan_trustees(struct ncp_client *cl, const char *path,
		      int (*cb)(const struct ncp_trustee_entry *e, void *ctx),
		      void *ctx)
{
	uint8_t b[300], r[64];
	size_t rl, n = strlen(path);

	if (n > 255)
		return IPX_EINVAL;
	b[0] = cl->dh;
	b[2] = (uint8_t)n;
	memcpy(b + 3, path, n);
	for (unsigned set = 0; set < 256; set++) {
		int rc;

		b[1] = (uint8_t)set;
		rc = ncp_request_sub(cl, 0x16, 0x0C, b, 3 + n, r, sizeof(r),
				     &rl);
		/* 0x9C: no more trustees (or, for the first set, no such
		 * directory: asked apart). */
		if (rc == NCP_CC_BAD_PATH && set > 0)
			return 0;
		if (rc == NCP_CC_BAD_PATH) {
			uint16_t mine;

			return ncp_effective_rights(cl, path, &mine);
		}
		if (rc)
			return rc;
		if (rl < 49)
			return NCP_E_BADREPLY;
		for (size_t i = 0; i < 5; i++) {
			struct ncp_trustee_entry e = {
				.id = ipx_get32(r + 24 + 4 * i),
				.rights = r[44 + i],
			};

			if (e.id && cb(&e, ctx))
				return 0;
		}
	}
	return 0;
}

int ncp_add_trustee(struct ncp_client *cl, const char *path, uint32_t id,
		    uint16_t rights)
{
	uint8_t b[300];
	bool word = rights > 0xFF;
	size_t n = strlen(path), k;

	if (n > 255)
		return IPX_EINVAL;
	b[0] = cl->dh;
	ipx_put32(b + 1, id);
	if (word) {
		ipx_put16le(b + 5, rights);
		k = 7;
	} else {
		b[5] = (uint8_t)rights;
		k = 6;
	}
	b[k] = (uint8_t)n;
	memcpy(b + k + 1, path, n);
	return ncp_request_sub(cl, 0x16, word ? 0x27 : 0x0D, b, k + 1 + n,
			       NULL, 0, NULL);
}

int ncp_delete_trustee(struct ncp_client *cl, const char *path, uint32_t id)
{
	uint8_t b[300];
	size_t n = strlen(path);

	if (n > 255)
		return IPX_EINVAL;
	b[0] = cl->dh;
	ipx_put32(b + 1, id);
	b[5] = 0;
	b[6] = (uint8_t)n;
	memcpy(b + 7, path, n);
	return ncp_request_sub(cl, 0x16, 0x0E, b, 7 + n, NULL, 0, NULL);
}

/* One 0x17 0x37 step: the user after 'last' matching 'pattern'. */
static int scan_user(struct ncp_client *cl, uint32_t last,
		     const char *pattern, uint32_t *id, char *name,
		     size_t cap)
{
	uint8_t b[64], r[80];
	size_t n = strlen(pattern), rl;
	int rc;

	if (n > 47)
		return IPX_EINVAL;
	ipx_put32(b, last);
	ipx_put16(b + 4, NCP_OBJ_USER);
	b[6] = (uint8_t)n;
	memcpy(b + 7, pattern, n);
	rc = ncp_request_sub(cl, 0x17, 0x37, b, 7 + n, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 54)
		return NCP_E_BADREPLY;
	*id = ipx_get32(r);
	snprintf(name, cap, "%.48s", (const char *)r + 6);
	return 0;
}

int ncp_user_id(struct ncp_client *cl, const char *name, uint32_t *id)
{
	char got[64];

	return scan_user(cl, 0xFFFFFFFFu, name, id, got, sizeof(got));
}

int ncp_user_name(struct ncp_client *cl, uint32_t id, char *name,
		  size_t cap)
{
	uint32_t last = 0xFFFFFFFFu, got;
	int rc;

	for (unsigned i = 0; i < 4096; i++) {
		rc = scan_user(cl, last, "*", &got, name, cap);
		if (rc)
			return rc;
		if (got == id)
			return 0;
		last = got;
	}
	return NCP_CC_NO_OBJECT;
}
