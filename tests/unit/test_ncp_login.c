/*
 * test_ncp_login.c - encrypted login, change of password and broadcast
 * messages on the in-memory link (ncprig): keyed login and its refusals
 * (wrong password, no key issued, a key used twice, an unknown user),
 * clear text refused by default and taken when allowed, the client's
 * fallback only when allowed, the keyed change of password kept in the
 * users file as a hash, `--passwd`'s rewrite, and 0x15 messages held,
 * announced and fetched, with every refusal of a send.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp_crypt.h"
#include "ncprig.h"

static const struct ncp_server_stats *st(struct ncprig *r)
{
	return ncp_server_stats(r->srv);
}

static struct ncp_client *connected(struct ncprig *r, bool clear_ok)
{
	struct ncp_client_opts o = { .retries = -1,
				     .allow_clear_text = clear_ok };
	struct ncp_client *cl;
	struct ipx_addr a;

	assert_int_equal(ncp_client_new(r->cli->node, &o, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	return cl;
}

/* A raw 0x17 0x18 (or 0x4A) for user with an 8-byte answer: the cc. */
static uint8_t raw_keyed(struct ncprig *r, struct rawconn *b, uint8_t sub,
			 const uint8_t ans[8], const char *user)
{
	uint8_t q[64];
	size_t un = strlen(user), l;
	const uint8_t *rep;

	ipx_put16(q, (uint16_t)(1 + 8 + 3 + un));
	q[2] = sub;
	memcpy(q + 3, ans, 8);
	ipx_put16(q + 11, NCP_OBJ_USER);
	q[13] = (uint8_t)un;
	memcpy(q + 14, user, un);
	rep = rawconn_call(r, b, 0x17, q, 14 + un, &l);
	return rep[6];
}

static void raw_key(struct ncprig *r, struct rawconn *b, uint8_t key[8])
{
	size_t l;
	const uint8_t *rep = rawconn_call(r, b, 0x17, "\x00\x01\x17", 3, &l);

	assert_int_equal(rep[6], 0);
	assert_int_equal(l, 16);
	memcpy(key, rep + 8, 8);
}

static void keyed_login_and_its_refusals(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct rawconn *b = rawconn_open(r, false);
	struct ncp_client *cl = connected(r, false);
	uint8_t k1[8], k2[8], h[16], ans[8];
	char user[48];
	uint8_t station;

	(void)state;
	/* The client: keyed; a password's case does not matter. */
	assert_int_equal(ncp_login(cl, "alice", "secret"), 0);
	assert_int_equal(ncp_whoami(cl, user, sizeof(user), &station), 0);
	assert_string_equal(user, "ALICE");
	assert_int_equal(ncp_login(cl, "alice", "wrong"), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "SUPERVISOR", ""), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "NOBODY", "x"), NCP_CC_NO_OBJECT);
	assert_int_equal(ncp_login(cl, "SUPERVISOR", "SUP"), 0);
	assert_int_equal(st(r)->keys_issued, 5);
	assert_int_equal(st(r)->refusals[NCP_SRV_REF_CLEAR_TEXT], 0);
	/* Fresh keys, per request and per connection. */
	raw_key(r, b, k1);
	raw_key(r, b, k2);
	assert_memory_not_equal(k1, k2, 8);
	/* The right answer to the key last issued: in. */
	ncp_pw_hash(0x00010001, "", 0, h);
	ncp_pw_key_answer(k2, h, ans);
	assert_int_equal(raw_keyed(r, b, 0x18, ans, "GUEST"), 0);
	/* The same answer again: that key is used up (no key). */
	assert_int_equal(raw_keyed(r, b, 0x18, ans, "GUEST"), NCP_CC_FAILURE);
	assert_int_equal(st(r)->refusals[NCP_SRV_REF_NO_KEY], 1);
	/* An answer to an old key, after a new one: wrong (FF, counted). */
	raw_key(r, b, k2);
	ncp_pw_key_answer(k1, h, ans);
	assert_int_equal(raw_keyed(r, b, 0x18, ans, "GUEST"), NCP_CC_FAILURE);
	/* 0x4A keyed verify: right, then wrong. */
	raw_key(r, b, k1);
	ncp_pw_key_answer(k1, h, ans);
	assert_int_equal(raw_keyed(r, b, 0x4A, ans, "GUEST"), 0);
	raw_key(r, b, k1);
	assert_int_equal(raw_keyed(r, b, 0x4A, ans, "GUEST"), NCP_CC_FAILURE);
	assert_int_equal(st(r)->refusals[NCP_SRV_REF_NO_KEY], 1);
	assert_int_equal(st(r)->bad_logins, 4);
	/* A short request: malformed, no key taken. */
	raw_key(r, b, k1);
	assert_int_equal(rawconn_call(r, b, 0x17, "\x00\x05\x18\x01\x02\x03\x04",
				      7, NULL)[6], NCP_CC_FAILURE);
	assert_int_equal(st(r)->refusals[NCP_SRV_REF_MALFORMED], 1);
	ncp_client_free(cl);
	rawconn_close(b);
	ncprig_free(r);
}

static void clear_text_only_when_allowed(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r = ncprig_new(NULL);
	struct rawconn *b = rawconn_open(r, false);
	struct ncp_client *cl;
	size_t l;

	(void)state;
	/* Refused by default: 0xD6, counted. */
	assert_int_equal(rawconn_call(r, b, 0x17, "\x00\x0A\x14\x00\x01\x05"
				      "GUEST\x00", 12, &l)[6],
			 NCP_CC_NO_PLAINTEXT);
	assert_int_equal(st(r)->refusals[NCP_SRV_REF_CLEAR_TEXT], 1);
	rawconn_close(b);
	ncprig_free(r);

	/* A server that takes clear text; one without keys. */
	ncprig_default_opts(&o);
	o.allow_clear_text = true;
	o.no_login_key = true;
	r = ncprig_new(&o);
	b = rawconn_open(r, false);
	assert_int_equal(rawconn_call(r, b, 0x17, "\x00\x0A\x14\x00\x01\x05"
				      "GUEST\x00", 12, &l)[6], 0);
	assert_int_equal(rawconn_call(r, b, 0x17, "\x00\x0B\x14\x00\x01\x05"
				      "GUEST\x01X", 13, &l)[6],
			 NCP_CC_BAD_PASSWORD);
	/* The client falls back only when allowed to. */
	cl = connected(r, false);
	assert_int_equal(ncp_login(cl, "alice", "secret"), NCP_E_NOKEY);
	assert_non_null(strstr(ncp_strerror(NCP_E_NOKEY), "--clear-text"));
	ncp_client_free(cl);
	cl = connected(r, true);
	assert_int_equal(ncp_login(cl, "alice", "secret"), 0);
	assert_int_equal(ncp_login(cl, "alice", "bad"), NCP_CC_BAD_PASSWORD);
	assert_int_equal(st(r)->keys_issued, 0);
	ncp_client_free(cl);
	rawconn_close(b);
	ncprig_free(r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = calloc(1, 8192);

	assert_non_null(f);
	assert_non_null(s);
	assert_true(fread(s, 1, 8191, f) > 0);
	fclose(f);
	return s;
}

static void change_password_kept_hashed(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *cl = connected(r, false);
	struct ncp_server *srv2;
	struct ncp_server_opts o;
	char err[256], *text;

	(void)state;
	assert_int_equal(ncp_change_password(cl, "alice", "wrong", "new1"),
			 NCP_CC_BAD_PASSWORD);
	assert_int_equal(st(r)->passwords_changed, 0);
	assert_int_equal(ncp_change_password(cl, "NOBODY", "a", "b"),
			 NCP_CC_NO_OBJECT);
	assert_int_equal(ncp_change_password(cl, "alice", "Secret", "New1"),
			 0);
	assert_int_equal(st(r)->passwords_changed, 1);
	assert_int_equal(ncp_login(cl, "alice", "secret"), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "alice", "new1"), 0);
	/* The file: hashes only (the clear lines were rewritten too). */
	text = slurp(r->users);
	assert_null(strstr(text, "Secret"));
	assert_null(strstr(text, "NEW1"));
	assert_null(strstr(text, " sup\n"));
	assert_non_null(strstr(text, "ALICE 00010002 "));
	assert_non_null(strstr(text, "SUPERVISOR 00000001 "));
	free(text);
	/* A server started from it knows the new password. */
	ncprig_default_opts(&o);
	snprintf(o.volumes[0].name, sizeof(o.volumes[0].name), "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s", r->sys);
	o.nvolumes = 1;
	o.users_file = r->users;
	assert_int_equal(ncp_server_new(r->srvnode->node, &o, &srv2, err,
					sizeof(err)), IPX_EINUSE);
	ncp_client_free(cl);
	ncp_server_free(r->srv);
	assert_int_equal(ncp_server_new(r->srvnode->node, &o, &r->srv, err,
					sizeof(err)), IPX_OK);
	ncprig_run(r, IPX_SEC);
	cl = connected(r, false);
	assert_int_equal(ncp_login(cl, "ALICE", "NEW1"), 0);
	assert_int_equal(ncp_login(cl, "SUPERVISOR", "sup"), 0);
	ncp_client_free(cl);
	ncprig_free(r);
}

static void passwd_rewrites_the_users_file(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_server_opts o;
	struct ncp_client *cl;
	char err[256], *text, path[400];
	FILE *f;

	(void)state;
	assert_int_equal(ncp_users_set_password(r->users, "bob", "Pw1", err,
						sizeof(err)), IPX_OK);
	assert_int_equal(ncp_users_set_password(r->users, "alice", "Two",
						err, sizeof(err)), IPX_OK);
	assert_int_equal(ncp_users_set_password(r->users, "bad.name", "x",
						err, sizeof(err)), IPX_EINVAL);
	text = slurp(r->users);
	assert_null(strstr(text, "Secret"));
	assert_null(strstr(text, "PW1"));
	assert_null(strstr(text, "Pw1"));
	assert_non_null(strstr(text, "ALICE 00010002 "));
	assert_non_null(strstr(text, "BOB 00010003 "));
	free(text);
	/* A file that does not exist yet is made. */
	snprintf(path, sizeof(path), "%s/new-users", r->root);
	assert_int_equal(ncp_users_set_password(path, "carol", "c", err,
						sizeof(err)), IPX_OK);
	/* A hashed line with an ID another has: refused with file:line. */
	f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "DAVE 00010002 00112233445566778899AABBCCDDEEFF\n");
	fclose(f);
	ncprig_default_opts(&o);
	snprintf(o.volumes[0].name, sizeof(o.volumes[0].name), "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s", r->sys);
	o.nvolumes = 1;
	o.users_file = path;
	{
		struct ncp_server *s2;

		assert_int_equal(ncp_server_new(r->srvnode->node, &o, &s2,
						err, sizeof(err)),
				 IPX_ECONFIG);
		assert_non_null(strstr(err, ":4: user DAVE cannot have ID "
					    "00010002"));
	}
	ncp_server_free(r->srv);
	o.users_file = r->users;
	assert_int_equal(ncp_server_new(r->srvnode->node, &o, &r->srv, err,
					sizeof(err)), IPX_OK);
	ncprig_run(r, IPX_SEC);
	cl = connected(r, false);
	assert_int_equal(ncp_login(cl, "bob", "pw1"), 0);
	assert_int_equal(ncp_login(cl, "alice", "two"), 0);
	assert_int_equal(ncp_login(cl, "alice", "secret"), NCP_CC_BAD_PASSWORD);
	ncp_client_free(cl);
	ncprig_free(r);
}

static void count_packet(struct ipx_socket *s, const struct ipx_header *h,
			 const uint8_t *data, size_t len, void *ctx)
{
	uint8_t *last = ctx;

	(void)s;
	(void)h;
	if (len == 2) {
		last[0]++;
		last[1] = data[1];
	}
}

static void messages_held_announced_fetched(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *a = ncprig_login(r, "GUEST", "");
	struct ncp_client *b = ncprig_login(r, "alice", "secret");
	struct rawconn *raw = rawconn_open(r, true);
	struct ipx_socket *bell;
	uint16_t conns[4], to[3];
	uint8_t status[3], heard[2] = { 0, 0 };
	char msg[300];
	size_t n, l;
	const uint8_t *rep;

	(void)state;
	assert_int_equal(ipx_socket_open(r->cli->node,
					 (uint16_t)(ipx_socket_number(raw->sock)
						    + 2),
					 count_packet, heard, &bell), IPX_OK);
	/* Who is ALICE: her connection; NOBODY no object; SUPERVISOR none. */
	assert_int_equal(ncp_user_connections(a, "alice", conns, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(conns[0], ncp_connection(b));
	assert_int_equal(ncp_user_connections(a, "NOBODY", conns, 4, &n),
			 NCP_CC_NO_OBJECT);
	assert_int_equal(ncp_user_connections(a, "SUPERVISOR", conns, 4, &n),
			 0);
	assert_int_equal(n, 0);
	/* The new form (0x17 0x1B): after connection 0, then after hers. */
	{
		uint8_t q[20] = { 0, 13, 0x1B, 0, 0, 0, 0, 0, 1, 5,
				  'A', 'L', 'I', 'C', 'E' };

		rep = rawconn_call(r, raw, 0x17, q, 15, &l);
		assert_int_equal(rep[6], 0);
		assert_int_equal(l, 8 + 5);
		assert_int_equal(rep[8], 1);
		assert_int_equal(ipx_get16le(rep + 9), ncp_connection(b));
		q[3] = (uint8_t)ncp_connection(b);
		rep = rawconn_call(r, raw, 0x17, q, 15, &l);
		assert_int_equal(l, 8 + 1);
		assert_int_equal(rep[8], 0);
	}
	/* To alice, to nobody (200), to the raw one. */
	to[0] = ncp_connection(b);
	to[1] = 200;
	to[2] = raw->conn;
	assert_int_equal(ncp_send_message(a, to, 3, "hello", status), 0);
	assert_int_equal(status[0], 0);
	assert_int_equal(status[1], 0xFD);
	assert_int_equal(status[2], 0);
	assert_int_equal(st(r)->messages_sent, 2);
	assert_int_equal(st(r)->messages_refused, 1);
	ncprig_run(r, 100 * IPX_MSEC);
	assert_int_equal(heard[0], 1);
	assert_int_equal(heard[1], '!');
	/* A second one for alice: she holds one (FC). */
	assert_int_equal(ncp_send_message(a, to, 1, "again", status), 0);
	assert_int_equal(status[0], 0xFC);
	/* Alice's replies say it; she fetches it; then it is gone. */
	assert_false(ncp_message_waiting(b));
	assert_int_equal(ncp_whoami(b, msg, sizeof(msg), heard), 0);
	assert_true(ncp_message_waiting(b));
	assert_int_equal(ncp_get_message(b, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "hello");
	assert_false(ncp_message_waiting(b));
	assert_int_equal(ncp_get_message(b, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	/* The old form (0x15 0x01) from the raw connection. */
	rep = rawconn_call(r, raw, 0x17, "\x00\x01\x12", 3, &l);
	assert_int_equal(rep[7], NCP_STATUS_BROADCAST);	/* held */
	rep = rawconn_call(r, raw, 0x15, "\x00\x01\x01", 3, &l);
	assert_int_equal(rep[7], 0);	/* fetched by this one */
	assert_int_equal(l, 8 + 6);
	assert_memory_equal(rep + 8, "\x05hello", 6);
	/* Disabled (0x15 0x02): FF; the old send (0x15 0x00). */
	rep = rawconn_call(r, raw, 0x15, "\x00\x01\x02", 3, &l);
	assert_int_equal(rep[6], 0);
	assert_int_equal(rep[7], 0);
	to[0] = raw->conn;
	assert_int_equal(ncp_send_message(a, to, 1, "x", status), 0);
	assert_int_equal(status[0], 0xFF);
	{
		uint8_t q[16] = { 0, 6, 0x00, 2, (uint8_t)ncp_connection(b),
				  7, 2, 'h', 'i' };

		rep = rawconn_call(r, raw, 0x15, q, 9, &l);
		assert_int_equal(rep[6], 0);
		assert_int_equal(l, 8 + 3);
		assert_memory_equal(rep + 8, "\x02\x00\xFD", 3);
	}
	assert_int_equal(ncp_get_message(b, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "hi");
	/* Too long for NetWare 3.x: refused before sending. */
	memset(msg, 'm', 59);
	msg[59] = '\0';
	assert_int_equal(ncp_send_message(a, to, 1, msg, status), IPX_EINVAL);
	/* A malformed send (count past the data). */
	rep = rawconn_call(r, raw, 0x15, "\x00\x03\x0A\x05\x00", 5, &l);
	assert_int_equal(rep[6], NCP_CC_FAILURE);
	ipx_socket_close(bell);
	rawconn_close(raw);
	ncp_client_free(a);
	ncp_client_free(b);
	ncprig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keyed_login_and_its_refusals),
		cmocka_unit_test(clear_text_only_when_allowed),
		cmocka_unit_test(change_password_kept_hashed),
		cmocka_unit_test(passwd_rewrites_the_users_file),
		cmocka_unit_test(messages_held_announced_fetched),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
