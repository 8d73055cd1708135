/*
 * ncprig.c - the NCP test bench (see ncprig.h).
 */
#include "cm.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp_crypt.h"
#include "ncprig.h"
#include "tfile.h"

void ncprig_default_opts(struct ncp_server_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->name = "TESTSRV";
}

struct ncprig *ncprig_new(const struct ncp_server_opts *given)
{
	static const uint32_t nets[] = { 0x10 };
	struct ncprig *r = calloc(1, sizeof(*r));
	struct ncp_server_opts o;
	char err[256];

	assert_non_null(r);
	if (given)
		o = *given;
	else
		ncprig_default_opts(&o);
	snprintf(r->root, sizeof(r->root), "/tmp/ipxlab-ncp.XXXXXX");
	assert_non_null(mkdtemp(r->root));
	snprintf(r->sys, sizeof(r->sys), "%s/sys", r->root);
	snprintf(r->data, sizeof(r->data), "%s/data", r->root);
	snprintf(r->outside, sizeof(r->outside), "%s/outside", r->root);
	snprintf(r->users, sizeof(r->users), "%s/users", r->root);
	assert_int_equal(mkdir(r->sys, 0755), 0);
	assert_int_equal(mkdir(r->data, 0755), 0);
	assert_int_equal(mkdir(r->outside, 0755), 0);
	tfile_put(r->data, "README.TXT", "hello\n");
	tfile_put(r->outside, "SECRET.TXT", "secret\n");
	tfile_put(r->root, "users", "# test users\nalice Secret\n"
				     "SUPERVISOR sup\n");
	snprintf(o.volumes[0].name, sizeof(o.volumes[0].name), "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s", r->sys);
	snprintf(o.volumes[1].name, sizeof(o.volumes[1].name), "DATA");
	snprintf(o.volumes[1].dir, sizeof(o.volumes[1].dir), "%s", r->data);
	o.volumes[1].read_only = true;
	o.nvolumes = 2;
	o.users_file = r->users;
	r->net = svcnet_new(1, nets);
	r->srvnode = svcnet_add(r->net, 0, (int[]){ 0 }, 1);
	r->cli = svcnet_add(r->net, SVC_SAP, (int[]){ 0 }, 1);
	if (ncp_server_new(r->srvnode->node, &o, &r->srv, err, sizeof(err)) !=
	    IPX_OK)
		fail_msg("server: %s", err);
	ncprig_run(r, IPX_SEC);
	return r;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	chmod(p, 0700);
	return remove(p);
}

void ncprig_free(struct ncprig *r)
{
	ncp_server_free(r->srv);
	svcnet_free(r->net);
	nftw(r->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(r);
}

void ncprig_run(struct ncprig *r, ipx_time d)
{
	assert_int_equal(ipx_loop_run_for(r->net->loop, d), IPX_OK);
}

void ncprig_server_addr(const struct ncprig *r, struct ipx_addr *out)
{
	svcnet_addr(r->srvnode, 0x451, out);
}

static struct ncp_client *login_as(struct ncprig *r, const char *user,
				    const char *pass, bool dos)
{
	struct ncp_client *cl;
	struct ncp_client_opts o = { .retries = -1, .long_names = !dos };
	struct ipx_addr a;

	assert_int_equal(ncp_client_new(r->cli->node, &o, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_login(cl, user, pass), 0);
	return cl;
}

struct ncp_client *ncprig_login(struct ncprig *r, const char *user,
				const char *pass)
{
	return login_as(r, user, pass, true);
}

struct ncp_client *ncprig_login_long(struct ncprig *r, const char *user,
				     const char *pass)
{
	return login_as(r, user, pass, false);
}

static void on_raw(struct ipx_socket *s, const struct ipx_header *h,
		   const uint8_t *data, size_t len, void *ctx)
{
	struct rawconn *b = ctx;

	(void)s;
	(void)h;
	if (len > sizeof(b->last))
		len = sizeof(b->last);
	memcpy(b->last, data, len);
	b->last_len = len;
	b->count++;
}

static void send_pkt(struct ncprig *r, struct rawconn *b, uint16_t type,
		     uint8_t fn, const void *data, size_t len)
{
	struct ncp_req_hdr h = { type, b->seq, b->conn, 1, fn };

	(void)r;
	ncp_req_encode(&h, b->sent);
	if (len)
		memcpy(b->sent + 7, data, len);
	b->sent_len = 7 + len;
	assert_int_equal(ipx_socket_sendto(b->sock, &b->srv, IPX_TYPE_NCP,
					   b->sent, b->sent_len), IPX_OK);
}

static const uint8_t *wait_one(struct ncprig *r, struct rawconn *b,
			       size_t *rlen)
{
	unsigned before = b->count;

	for (int i = 0; i < 100 && b->count == before; i++)
		ncprig_run(r, 10 * IPX_MSEC);
	assert_true(b->count > before);
	if (rlen)
		*rlen = b->last_len;
	return b->last;
}

struct rawconn *rawconn_open(struct ncprig *r, bool login)
{
	struct rawconn *b = calloc(1, sizeof(*b));
	struct ncp_rep_hdr h;
	const uint8_t *rep;
	size_t l;

	assert_non_null(b);
	assert_int_equal(ipx_socket_open(r->cli->node, 0, on_raw, b, &b->sock),
			 IPX_OK);
	ncprig_server_addr(r, &b->srv);
	b->conn = 0xFFFF;
	send_pkt(r, b, NCP_TYPE_CREATE, 0, NULL, 0);
	rep = wait_one(r, b, &l);
	assert_int_equal(ncp_rep_decode(rep, l, &h), 0);
	if (h.cc == 0)
		b->conn = h.conn;
	if (login) {
		assert_int_equal(h.cc, 0);
		uint8_t q[3 + 8 + 8] = { 0x00, 0x11, 0x18 }, ph[16];

		/* Keyed, as GUEST (ID 00010001, empty password). */
		rep = rawconn_call(r, b, 0x17, "\x00\x01\x17", 3, &l);
		assert_int_equal(rep[6], 0);
		assert_int_equal(l, 16);
		ncp_pw_hash(0x00010001, "", 0, ph);
		ncp_pw_key_answer(rep + 8, ph, q + 3);
		memcpy(q + 11, "\x00\x01\x05GUEST", 8);
		rep = rawconn_call(r, b, 0x17, q, sizeof(q), &l);
		assert_int_equal(rep[6], 0);
		rep = rawconn_call(r, b, 0x16,
				   "\x00\x07\x12\x00\x5A\x04SYS:", 10, &l);
		assert_int_equal(rep[6], 0);
		assert_int_equal(rep[8], 1);
	}
	return b;
}

void rawconn_close(struct rawconn *b)
{
	ipx_socket_close(b->sock);
	free(b);
}

void rawconn_send(struct ncprig *r, struct rawconn *b, uint8_t fn,
		  const void *data, size_t len)
{
	b->seq++;
	send_pkt(r, b, NCP_TYPE_REQUEST, fn, data, len);
}

const uint8_t *rawconn_call(struct ncprig *r, struct rawconn *b, uint8_t fn,
			    const void *data, size_t len, size_t *rlen)
{
	rawconn_send(r, b, fn, data, len);
	return wait_one(r, b, rlen);
}

const uint8_t *rawconn_resend(struct ncprig *r, struct rawconn *b,
			      size_t *rlen)
{
	assert_int_equal(ipx_socket_sendto(b->sock, &b->srv, IPX_TYPE_NCP,
					   b->sent, b->sent_len), IPX_OK);
	return wait_one(r, b, rlen);
}

unsigned rawconn_replies(struct ncprig *r, struct rawconn *b, ipx_time d)
{
	unsigned before = b->count;

	ncprig_run(r, d);
	return b->count - before;
}

const uint8_t *rawconn_last(struct rawconn *b, size_t *rlen)
{
	if (rlen)
		*rlen = b->last_len;
	return b->last;
}

const uint8_t *rawconn_open_file(struct ncprig *r, struct rawconn *b,
				 const char *name, uint8_t *handle)
{
	uint8_t req[300];
	size_t n = strlen(name), l;
	const uint8_t *rep;

	req[0] = 1;
	req[1] = 0;
	req[2] = NCP_RIGHT_READ | NCP_RIGHT_WRITE;
	req[3] = (uint8_t)n;
	memcpy(req + 4, name, n);
	rep = rawconn_call(r, b, 0x4C, req, 4 + n, &l);
	if (rep[6] == 0) {
		assert_int_equal(l, 44);
		memcpy(handle, rep + 8, 6);
	}
	return rep;
}

void rawconn_send_raw(struct ncprig *r, struct rawconn *b, const void *p,
		      size_t len)
{
	assert_int_equal(ipx_socket_sendto(b->sock, &b->srv, IPX_TYPE_NCP, p,
					   len), IPX_OK);
	ncprig_run(r, 100 * IPX_MSEC);
}

void rawconn_destroy(struct ncprig *r, struct rawconn *b)
{
	b->seq++;
	send_pkt(r, b, NCP_TYPE_DESTROY, 0, NULL, 0);
	wait_one(r, b, NULL);
}
