/*
 * fn_login.c - login and passwords (fn_info.c's 0x17 sends them here):
 * 0x17 0x14 clear-text login (refused with 0xD6 unless the server takes
 * them), 0x17 0x15 / 0x1B Get Object Connection List, 0x17 0x17 Get Login Key (8 random bytes, good for one keyed
 * call of this connection), 0x17 0x18 Keyed Object Login, 0x17 0x4A
 * Keyed Verify Password and 0x17 0x4B Keyed Change Password. The server
 * keeps only NetWare's password hash (bindery.c, ncp_crypt.h); a wrong
 * answer to a key is 0xFF, as NetWare and mars_nwe answer it.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_crypt.h"
#include "srv_int.h"

static bool same(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static void log_in(struct ncp_call *c, const struct ncp_user *u)
{
	c->srv->stats.logins++;
	c->conn->logged_in = true;
	c->conn->user_id = u->id;
	snprintf(c->conn->user, sizeof(c->conn->user), "%s", u->name);
	c->conn->login_time = (ipx_time)time(NULL);
}

/* Logging in again is a logout first, as on NetWare. */
static void log_out(struct ncp_call *c)
{
	ncp_conn_release(c->srv, c->conn, -1);
	c->conn->logged_in = false;
	c->conn->user[0] = '\0';
}

/* +0 type BE2, +2 name, then the password (both length-prefixed). */
static void clear_login(struct ncp_call *c)
{
	char name[64], pass[256], up[256];
	uint16_t type = ncp_rd16(&c->rd);
	uint8_t h[NCP_HASH_LEN];
	const struct ncp_user *u;
	size_t n;

	ncp_rdstr(&c->rd, name, sizeof(name));
	ncp_rdstr(&c->rd, pass, sizeof(pass));
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (!c->srv->allow_clear) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_CLEAR_TEXT,
				   NCP_CC_NO_PLAINTEXT);
		return;
	}
	log_out(c);
	u = type == NCP_OBJ_USER ? ncp_bindery_find(c->srv, name) : NULL;
	if (!u) {
		c->srv->stats.bad_logins++;
		c->cc = NCP_CC_NO_OBJECT;
		return;
	}
	/* Hashed upper-cased, as DOS LOGIN sends it and mars_nwe checks. */
	n = ncp_pw_upper(pass, up, sizeof(up));
	ncp_pw_hash(u->id, up, n, h);
	memset(up, 0, sizeof(up));
	memset(pass, 0, sizeof(pass));
	if (!u->has_password || !same(h, u->hash, NCP_HASH_LEN)) {
		c->srv->stats.bad_logins++;
		c->cc = NCP_CC_BAD_PASSWORD;
		return;
	}
	log_in(c, u);
}

static bool random_bytes(uint8_t *b, size_t n)
{
	int fd;
	ssize_t got;

	if (getrandom(b, n, 0) == (ssize_t)n)
		return true;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	got = read(fd, b, n);
	close(fd);
	return got == (ssize_t)n;
}

static void get_key(struct ncp_call *c)
{
	if (c->srv->no_key) {
		ncp_unknown(c, true);
		return;
	}
	if (!random_bytes(c->conn->login_key, NCP_KEY_LEN)) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	c->conn->key_issued = true;
	c->srv->stats.keys_issued++;
	ncp_wrn(&c->wr, c->conn->login_key, NCP_KEY_LEN);
}

/*
 * The common head of 0x18, 0x4A and 0x4B: +0 the answer to the key (8),
 * +8 type BE2, +10 name. The key is used up whatever the outcome. The
 * user whose hash the answer proves, or NULL with c->cc set: 0xFF for no
 * key issued (counted) or a wrong answer (a bad login), 0xFC no such
 * user.
 */
static struct ncp_user *keyed_user(struct ncp_call *c)
{
	const uint8_t *ans = ncp_rdn(&c->rd, NCP_KEY_LEN);
	uint16_t type = ncp_rd16(&c->rd);
	uint8_t want[NCP_KEY_LEN], key[NCP_KEY_LEN];
	char name[64];
	struct ncp_user *u;

	ncp_rdstr(&c->rd, name, sizeof(name));
	if (c->rd.bad || !ans) {
		ncp_malformed(c);
		return NULL;
	}
	if (!c->conn->key_issued) {
		c->cc = ncp_refuse(c, NCP_SRV_REF_NO_KEY, NCP_CC_FAILURE);
		return NULL;
	}
	memcpy(key, c->conn->login_key, NCP_KEY_LEN);
	c->conn->key_issued = false;
	u = type == NCP_OBJ_USER
		    ? (struct ncp_user *)ncp_bindery_find(c->srv, name)
		    : NULL;
	if (!u) {
		c->srv->stats.bad_logins++;
		c->cc = NCP_CC_NO_OBJECT;
		return NULL;
	}
	ncp_pw_key_answer(key, u->hash, want);
	if (!u->has_password || !same(ans, want, NCP_KEY_LEN)) {
		c->srv->stats.bad_logins++;
		c->cc = NCP_CC_FAILURE;
		return NULL;
	}
	return u;
}

/* 0x4B: after the head, the new length byte and the new hash (16),
 * coded with the old one. The users file is written at once. */
static void change_password(struct ncp_call *c)
{
	struct ncp_user *u = keyed_user(c);
	uint8_t old[NCP_HASH_LEN];
	const uint8_t *enc;
	char err[256];

	if (!u)
		return;
	ncp_rd8(&c->rd);	/* the length byte: nothing to check it by */
	enc = ncp_rdn(&c->rd, NCP_HASH_LEN);
	if (!enc || c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	memcpy(old, u->hash, NCP_HASH_LEN);
	ncp_pw_new_decode(old, enc, u->hash);
	if (c->srv->users_file) {
		if (!u->line)	/* a built-in user: into the file now */
			u->line = 100000 + (unsigned)(u - c->srv->users);
		if (ncp_bindery_save(c->srv, c->srv->users_file, err,
				     sizeof(err)) != 0) {
			ipx_warn("ncp: password of %s not changed: %s",
				 u->name, err);
			memcpy(u->hash, old, NCP_HASH_LEN);
			c->cc = NCP_CC_FAILURE;
			return;
		}
	}
	c->srv->stats.passwords_changed++;
	ipx_info("ncp: connection %u changed the password of %s",
		 c->conn->number, u->name);
}

/* 0x15 Get Object Connection List: +0 type BE2, +2 name; reply count,
 * then the connections logged in as it, 1 byte each. 0x1B (the new
 * form, nsend's): +0 the connection to search after LE4, then type and
 * name; reply count, numbers LE4. */
static void conn_list(struct ncp_call *c, bool wide)
{
	const uint8_t *after = wide ? ncp_rdn(&c->rd, 4) : NULL;
	uint16_t type = ncp_rd16(&c->rd);
	uint32_t from = after ? ipx_get16le(after) : 0;
	const struct ncp_user *u;
	unsigned n = 0, max = wide ? 62 : 255;
	uint8_t list[255 * 4];
	char name[64];

	ncp_rdstr(&c->rd, name, sizeof(name));
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	u = type == NCP_OBJ_USER ? ncp_bindery_find(c->srv, name) : NULL;
	if (!u) {
		c->cc = NCP_CC_NO_OBJECT;
		return;
	}
	for (unsigned i = 0; i < c->srv->max_conns && n < max; i++) {
		const struct ncp_conn *t = &c->srv->conns[i];

		if (!t->used || !t->logged_in || t->user_id != u->id ||
		    t->number <= from || (!wide && t->number > 255))
			continue;
		if (wide) {
			ipx_put16le(list + 4 * n, t->number);
			ipx_put16le(list + 4 * n + 2, 0);
		} else {
			list[n] = (uint8_t)t->number;
		}
		n++;
	}
	ncp_wr8(&c->wr, (uint8_t)n);
	ncp_wrn(&c->wr, list, wide ? 4 * n : n);
}

bool ncp_fn_login(struct ncp_call *c, uint8_t sub)
{
	struct ncp_user *u;

	switch (sub) {
	case 0x14:
		clear_login(c);
		return true;
	case 0x15:
	case 0x1B:
		conn_list(c, sub == 0x1B);
		return true;
	case 0x17:
		get_key(c);
		return true;
	case 0x18:
		log_out(c);
		u = keyed_user(c);
		if (u)
			log_in(c, u);
		return true;
	case 0x4A:
		keyed_user(c);
		return true;
	case 0x4B:
		change_password(c);
		return true;
	default:
		return false;
	}
}
