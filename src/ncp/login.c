/*
 * login.c - the client's login, change of password and broadcast
 * messages (ncp_client.h): keyed login with NetWare's password hash
 * (crypt.c) first, clear text only when the server gives no key and the
 * caller allows it; the keyed change of password; sending messages to
 * connections and fetching the one held for us. Layouts as ncpfs's
 * libncp sends them and Wireshark's NCP dissector reads them.
 */
#include <string.h>

#include "client_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp_crypt.h"

/* Type BE2 and the name (length-prefixed) at b: the bytes written. */
static size_t put_object(uint8_t *b, const char *user)
{
	size_t un = strlen(user);

	ipx_put16(b, NCP_OBJ_USER);
	b[2] = (uint8_t)un;
	memcpy(b + 3, user, un);
	return 3 + un;
}

/* 0x17 0x35: the object ID of a user. */
static int object_id(struct ncp_client *cl, const char *user, uint32_t *id)
{
	uint8_t b[64], r[64];
	size_t rl;
	int rc = ncp_request_sub(cl, 0x17, 0x35, b, put_object(b, user), r,
				 sizeof(r), &rl);

	if (rc == 0 && rl < 4)
		rc = NCP_E_BADREPLY;
	if (rc == 0)
		*id = ipx_get32(r);
	return rc;
}

/* 0x17 0x17: the key, or the server's refusal. */
static int login_key(struct ncp_client *cl, uint8_t key[NCP_KEY_LEN])
{
	size_t rl;
	int rc = ncp_request_sub(cl, 0x17, 0x17, NULL, 0, key, NCP_KEY_LEN,
				 &rl);

	return rc == 0 && rl < NCP_KEY_LEN ? NCP_E_BADREPLY : rc;
}

static int clear_login(struct ncp_client *cl, const char *user,
		       const char *up, size_t pn)
{
	uint8_t b[2 + 1 + 48 + 1 + 128];
	size_t at = put_object(b, user);

	b[at] = (uint8_t)pn;
	memcpy(b + at + 1, up, pn);
	return ncp_request_sub(cl, 0x17, 0x14, b, at + 1 + pn, NULL, 0, NULL);
}

static bool refused(int rc)
{
	return rc == NCP_CC_UNKNOWN_REQUEST || rc == NCP_CC_FAILURE;
}

static int keyed_login(struct ncp_client *cl, const char *user,
		       const char *up, size_t pn)
{
	uint8_t key[NCP_KEY_LEN], h[NCP_HASH_LEN], b[8 + 3 + 48];
	uint32_t id;
	int rc = login_key(cl, key);

	if (refused(rc))
		return cl->opts.allow_clear_text ? clear_login(cl, user, up, pn)
						 : NCP_E_NOKEY;
	if (rc == 0)
		rc = object_id(cl, user, &id);
	if (rc)
		return rc;
	ncp_pw_hash(id, up, pn, h);
	ncp_pw_key_answer(key, h, b);
	rc = ncp_request_sub(cl, 0x17, 0x18, b, 8 + put_object(b + 8, user),
			     NULL, 0, NULL);
	return rc == NCP_CC_FAILURE ? NCP_CC_BAD_PASSWORD : rc;
}

int ncp_login(struct ncp_client *cl, const char *user, const char *password)
{
	char up[128];
	size_t pn;
	int rc;

	if (strlen(user) == 0 || strlen(user) > 47 || strlen(password) > 127)
		return IPX_EINVAL;
	pn = ncp_pw_upper(password, up, sizeof(up));
	rc = keyed_login(cl, user, up, pn);
	memset(up, 0, sizeof(up));
	if (rc)
		return rc;
	cl->dh = 0;	/* the login freed every handle */
	return ncp_alloc_dh(cl, "SYS:");
}

int ncp_change_password(struct ncp_client *cl, const char *user,
			const char *old_pw, const char *new_pw)
{
	uint8_t key[NCP_KEY_LEN], oh[NCP_HASH_LEN], nh[NCP_HASH_LEN];
	uint8_t b[8 + 3 + 48 + 1 + 16];
	char up[128];
	size_t at, n;
	uint32_t id;
	int rc;

	if (strlen(user) == 0 || strlen(user) > 47 || strlen(old_pw) > 127 ||
	    strlen(new_pw) > 127)
		return IPX_EINVAL;
	rc = login_key(cl, key);
	if (rc == 0)
		rc = object_id(cl, user, &id);
	if (rc)
		return refused(rc) ? NCP_E_NOKEY : rc;
	n = ncp_pw_upper(old_pw, up, sizeof(up));
	ncp_pw_hash(id, up, n, oh);
	n = ncp_pw_upper(new_pw, up, sizeof(up));
	ncp_pw_hash(id, up, n, nh);
	memset(up, 0, sizeof(up));
	ncp_pw_key_answer(key, oh, b);
	at = 8 + put_object(b + 8, user);
	b[at++] = ncp_pw_new_len_byte(oh, n);
	ncp_pw_new_encode(oh, nh, b + at);
	rc = ncp_request_sub(cl, 0x17, 0x4B, b, at + NCP_HASH_LEN, NULL, 0,
			     NULL);
	return rc == NCP_CC_FAILURE ? NCP_CC_BAD_PASSWORD : rc;
}

int ncp_user_connections(struct ncp_client *cl, const char *user,
			 uint16_t *out, size_t cap, size_t *n)
{
	uint8_t b[64], r[260];
	size_t rl;
	int rc;

	*n = 0;
	if (strlen(user) == 0 || strlen(user) > 47)
		return IPX_EINVAL;
	rc = ncp_request_sub(cl, 0x17, 0x15, b, put_object(b, user), r,
			     sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 1 || rl < 1 + (size_t)r[0])
		return NCP_E_BADREPLY;
	for (size_t i = 0; i < r[0] && *n < cap; i++)
		out[(*n)++] = r[1 + i];
	return 0;
}

/* 0x15 0x00: one byte per connection (all of them below 256). */
static int send_old(struct ncp_client *cl, const uint16_t *conns, size_t n,
		    const char *msg, uint8_t *status)
{
	uint8_t b[1 + 255 + 1 + NCP_MSG_MAX], r[260];
	size_t ml = strlen(msg), at = 0, rl;
	int rc;

	b[at++] = (uint8_t)n;
	for (size_t i = 0; i < n; i++) {
		if (conns[i] > 255)
			return IPX_EINVAL;
		b[at++] = (uint8_t)conns[i];
	}
	b[at++] = (uint8_t)ml;
	memcpy(b + at, msg, ml);
	rc = ncp_request_sub(cl, 0x15, 0x00, b, at + ml, r, sizeof(r), &rl);
	if (rc == 0 && (rl < 1 + n || r[0] != n))
		rc = NCP_E_BADREPLY;
	for (size_t i = 0; rc == 0 && i < n; i++)
		status[i] = r[1 + i];
	return rc;
}

int ncp_send_message(struct ncp_client *cl, const uint16_t *conns, size_t n,
		     const char *msg, uint8_t *status)
{
	uint8_t b[2 + 4 * 255 + 1 + NCP_MSG_MAX], r[2 + 4 * 255];
	size_t ml = strlen(msg), at = 2, rl;
	int rc;

	if (n == 0 || n > 255 || ml > NCP_MSG_MAX)
		return IPX_EINVAL;
	ipx_put16le(b, (uint16_t)n);
	for (size_t i = 0; i < n; i++) {
		ipx_put16le(b + at, conns[i]);
		ipx_put16le(b + at + 2, 0);
		at += 4;
	}
	b[at++] = (uint8_t)ml;
	memcpy(b + at, msg, ml);
	rc = ncp_request_sub(cl, 0x15, 0x0A, b, at + ml, r, sizeof(r), &rl);
	if (rc == NCP_CC_UNKNOWN_REQUEST)
		return send_old(cl, conns, n, msg, status);
	if (rc == 0 && (rl < 2 + 4 * n || ipx_get16le(r) != n))
		rc = NCP_E_BADREPLY;
	for (size_t i = 0; rc == 0 && i < n; i++)
		status[i] = r[2 + 4 * i];
	return rc;
}

int ncp_get_message(struct ncp_client *cl, char *out, size_t cap)
{
	uint8_t r[260];
	size_t rl, n;
	int rc = ncp_request_sub(cl, 0x15, 0x0B, NULL, 0, r, sizeof(r), &rl);

	if (rc == NCP_CC_UNKNOWN_REQUEST)
		rc = ncp_request_sub(cl, 0x15, 0x01, NULL, 0, r, sizeof(r),
				     &rl);
	if (rc)
		return rc;
	if (rl < 1 || rl < 1 + (size_t)r[0])
		return NCP_E_BADREPLY;
	n = r[0] < cap ? r[0] : cap - 1;
	memcpy(out, r + 1, n);
	out[n] = '\0';
	return 0;
}

bool ncp_message_waiting(const struct ncp_client *cl)
{
	return cl->msg_waiting;
}
