/*
 * fn_info.c - the functions about the server and the connection
 * (dispatch.c sends them here): volume info (0x12), station (0x13), date
 * and time (0x14), volume and purge info (0x16 0x2C), the 0x17 family
 * (server info, internet address, logged info in the old and the new
 * form, object ID, description strings; logins in fn_login.c, bindery
 * scans in fn_bindery.c), end of job (0x18), logout (0x19), buffer size (0x21) and
 * big packets (0x61). Offsets are in ncp.h and docs/ncp.md.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <time.h>

#include "ipxlab/bytes.h"
#include "srv_int.h"

/* A volume's size in 32 KB blocks (64 sectors), free blocks (0 on a
 * read-only volume), directory entries and free ones; false (0x98) for a
 * volume the server does not have. */
struct vol_counts {
	uint64_t total, avail, files, ffree;
};

static bool vol_counts(struct ncp_call *c, int vol, struct vol_counts *v)
{
	struct statvfs sv;

	memset(v, 0, sizeof(*v));
	if (vol < 0 || (size_t)vol >= c->srv->nvols) {
		c->cc = NCP_CC_NO_VOLUME;
		return false;
	}
	if (fstatvfs(c->srv->vols[vol].fd, &sv) == 0) {
		uint64_t bs = sv.f_frsize ? sv.f_frsize : sv.f_bsize;

		v->total = sv.f_blocks * bs / 32768;
		v->avail = c->srv->vols[vol].ro ? 0 : sv.f_bavail * bs / 32768;
		v->files = sv.f_files;
		v->ffree = sv.f_ffree;
	}
	return true;
}

static uint16_t cap16(uint64_t v)
{
	return v > 0xFFFF ? 0xFFFF : (uint16_t)v;
}

/* 0x12 and 0x16 0x15: the counts capped at what 16 bits hold. */
void ncp_fn_volume_info(struct ncp_call *c, int vol)
{
	struct vol_counts v;

	if (!vol_counts(c, vol, &v))
		return;
	ncp_wr16(&c->wr, 64);
	ncp_wr16(&c->wr, cap16(v.total));
	ncp_wr16(&c->wr, cap16(v.avail));
	ncp_wr16(&c->wr, cap16(v.files));
	ncp_wr16(&c->wr, cap16(v.ffree));
	ncp_wrfixed(&c->wr, c->srv->vols[vol].name, 16);
	ncp_wr16(&c->wr, 0);
}

static void wr32le(struct ncp_wr *w, uint64_t v)
{
	uint8_t b[4];

	if (v > 0xFFFFFFFFu)
		v = 0xFFFFFFFFu;
	ipx_put16le(b, (uint16_t)v);
	ipx_put16le(b + 2, (uint16_t)(v >> 16));
	ncp_wrn(w, b, 4);
}

/* Little-endian (ncpfs, Wireshark): total blocks, free, purgeable, not yet
 * purgeable, directory entries, free ones, 4 reserved, then sectors per
 * block (1) and the name (length-prefixed). Nothing is ever purgeable. */
void ncp_fn_volume_purge_info(struct ncp_call *c, int vol)
{
	struct vol_counts v;

	if (!vol_counts(c, vol, &v))
		return;
	wr32le(&c->wr, v.total);
	wr32le(&c->wr, v.avail);
	wr32le(&c->wr, 0);
	wr32le(&c->wr, 0);
	wr32le(&c->wr, v.files);
	wr32le(&c->wr, v.ffree);
	wr32le(&c->wr, 0);
	ncp_wr8(&c->wr, 64);
	ncp_wrstr(&c->wr, c->srv->vols[vol].name);
}

/* Year (since 1900), month, day, hour, minute, second, day of week:
 * the 0x14 reply and the login time of 0x17 0x16. */
static void put_time7(struct ncp_wr *w, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	ncp_wr8(w, (uint8_t)tm.tm_year);
	ncp_wr8(w, (uint8_t)(tm.tm_mon + 1));
	ncp_wr8(w, (uint8_t)tm.tm_mday);
	ncp_wr8(w, (uint8_t)tm.tm_hour);
	ncp_wr8(w, (uint8_t)tm.tm_min);
	ncp_wr8(w, (uint8_t)tm.tm_sec);
	ncp_wr8(w, (uint8_t)tm.tm_wday);
}

static void server_info(struct ncp_call *c)
{
	struct ncp_server *srv = c->srv;

	ncp_wrfixed(&c->wr, srv->name, 48);
	ncp_wr8(&c->wr, 3);	/* NetWare 3.12 */
	ncp_wr8(&c->wr, 12);
	ncp_wr16(&c->wr, (uint16_t)srv->max_conns);
	ncp_wr16(&c->wr, (uint16_t)srv->in_use);
	ncp_wr16(&c->wr, (uint16_t)srv->nvols);
	ncp_wr8(&c->wr, 0);	/* revision */
	ncp_wr8(&c->wr, 2);	/* SFT level */
	ncp_wr8(&c->wr, 1);	/* TTS level */
	ncp_wr16(&c->wr, (uint16_t)srv->peak);
	for (int i = 0; i < 8; i++)	/* account .. bridge versions */
		ncp_wr8(&c->wr, 1);
	ncp_wr8(&c->wr, 0);	/* mixed-mode path flag */
	ncp_wr8(&c->wr, 0);	/* local login info ccode */
	ncp_wr16(&c->wr, 3);
	ncp_wr16(&c->wr, 12);
	ncp_wr16(&c->wr, 0);
	ncp_wr8(&c->wr, 0);	/* language */
	ncp_wr8(&c->wr, 0);	/* no 64-bit offsets */
	for (int i = 0; i < 50; i++)
		ncp_wr8(&c->wr, 0);
}

/* 0x17 0x16 and 0x1C: user ID BE4, type BE2, name 48, login time 7,
 * one reserved byte (Novell's NWNCP23s22GetStationLoggedInfo; tshark
 * marks a reply without it malformed, for 0x1C as for 0x16); a
 * connection in use but not logged in shows ID 0 and no name; a number
 * not in use is 0xFD (bad station), which ncpfs's nwuserlist skips. */
static void logged_info(struct ncp_call *c, const struct ncp_conn *t)
{
	if (!t) {
		c->cc = NCP_CC_BAD_STATION;
		return;
	}
	ncp_wr32(&c->wr, t->logged_in ? t->user_id : 0);
	ncp_wr16(&c->wr, t->logged_in ? NCP_OBJ_USER : 0);
	ncp_wrfixed(&c->wr, t->logged_in ? t->user : "", 48);
	put_time7(&c->wr, (time_t)t->login_time);
	ncp_wr8(&c->wr, 0);	/* reserved: 62 bytes in all */
}

/* 0x17 0xC9: 512 bytes of NUL-terminated strings (company, revision,
 * revision date, copyright), the rest zero. */
static void description_strings(struct ncp_call *c)
{
	static const char *const s[] = {
		"ipxlab",
		"NCP file server, NetWare 3.12 bindery functions",
		"ipxlab server",
		"Free software",
	};
	uint8_t b[512] = { 0 };
	size_t at = 0;

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		size_t n = strlen(s[i]) + 1;

		memcpy(b + at, s[i], n);
		at += n;
	}
	ncp_wrn(&c->wr, b, sizeof(b));
}

static struct ncp_conn *target_conn(struct ncp_call *c, uint8_t n)
{
	if (n == 0 || n > c->srv->max_conns || !c->srv->conns[n - 1].used)
		return NULL;
	return &c->srv->conns[n - 1];
}

/* The new forms (0x17 0x1A, 0x1C) give the connection as LE4. */
static struct ncp_conn *target_conn32(struct ncp_call *c)
{
	const uint8_t *q = ncp_rdn(&c->rd, 4);
	uint32_t n = q ? ipx_get16le(q) | (uint32_t)ipx_get16le(q + 2) << 16
		       : 0xFFFFFFFFu;

	return n > 0xFF ? NULL : target_conn(c, (uint8_t)n);
}

/* 0x17 0x13 and 0x1A: network BE4, node, socket BE2; false (0xFD) for a
 * connection not in use. */
static bool internet_address(struct ncp_call *c, const struct ncp_conn *t)
{
	if (!t) {
		c->cc = NCP_CC_BAD_STATION;
		return false;
	}
	ncp_wr32(&c->wr, t->addr.net);
	ncp_wrn(&c->wr, t->addr.node, IPX_NODE_LEN);
	ncp_wr16(&c->wr, t->addr.socket);
	return true;
}

static void fn_17(struct ncp_call *c)
{
	uint16_t len = ncp_rd16(&c->rd);
	uint8_t sub = ncp_rd8(&c->rd);
	const struct ncp_user *u;
	char name[64];
	if (c->rd.bad || len > c->rd.len - 2) {
		ncp_malformed(c);
		return;
	}
	switch (sub) {
	case 0x11:
		server_info(c);
		return;
	case 0x12:	/* network serial number */
		ncp_wr32(&c->wr, 0x1990);
		ncp_wr16(&c->wr, 1);
		return;
	case 0x13:	/* +10 connection (1 byte) */
		internet_address(c, target_conn(c, ncp_rd8(&c->rd)));
		return;
	case 0x1A:	/* +10 connection LE4; a connection type after */
		if (internet_address(c, target_conn32(c)))
			ncp_wr8(&c->wr, 2);	/* IPX */
		return;
	case 0x16:	/* +10 connection (1 byte) */
		logged_info(c, target_conn(c, ncp_rd8(&c->rd)));
		return;
	case 0x1C:	/* +10 connection LE4 (ncpfs, Wireshark) */
		logged_info(c, target_conn32(c));
		return;
	case 0xC9:
		description_strings(c);
		return;
	case 0x35:
		ncp_rd16(&c->rd);
		ncp_rdstr(&c->rd, name, sizeof(name));
		/* Before login too: keyed login needs the user's ID. */
		u = c->rd.bad ? NULL : ncp_bindery_find(c->srv, name);
		if (!u) {
			c->cc = NCP_CC_NO_OBJECT;
			return;
		}
		ncp_wr32(&c->wr, u->id);
		ncp_wr16(&c->wr, NCP_OBJ_USER);
		ncp_wrfixed(&c->wr, u->name, 48);
		return;
	default:	/* login and passwords in fn_login.c */
		if (!ncp_fn_login(c, sub) && !ncp_fn_bindery(c, sub))
			ncp_unknown(c, true);
	}
}

static void negotiate(struct ncp_call *c, bool big)
{
	uint16_t want = ncp_rd16(&c->rd);
	unsigned cap = c->srv->max_buffer;
	size_t payload = ipx_node_max_payload(c->srv->node, &c->conn->addr);

	/* A write request is 20 bytes of header before its data. */
	if (big && !c->srv->max_buffer_set)
		cap = payload > NCP_MAX_PACKET ? NCP_MAX_PACKET - 24
					       : (unsigned)payload - 24;
	if (cap > payload - 24)
		cap = (unsigned)payload - 24;
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (want < 512)
		want = 512;
	if (want > cap)
		want = (uint16_t)cap;
	c->conn->bufsize = want;
	ncp_wr16(&c->wr, want);
	if (big) {
		ncp_wr16(&c->wr, c->srv->sock ? NCP_SOCKET : 0);
		ncp_wr8(&c->wr, 0);	/* no checksums, no signatures */
	}
}

void ncp_fn_info(struct ncp_call *c)
{
	switch (c->hdr.function) {
	case 0x12:
		ncp_fn_volume_info(c, ncp_rd8(&c->rd));
		return;
	case 0x13:	/* 3 bytes, as Novell's NWNCP19GetStationNum and
			 * Wireshark read it (mars_nwe sends 1) */
		ncp_wr8(&c->wr, (uint8_t)c->conn->number);
		ncp_wr8(&c->wr, (uint8_t)(c->conn->number >> 8));
		ncp_wr8(&c->wr, 0);
		return;
	case 0x14:
		put_time7(&c->wr, time(NULL));
		return;
	case 0x17:
		fn_17(c);
		return;
	case 0x18:	/* end of job: the task's files, locks, temp handles */
		ncp_conn_release(c->srv, c->conn, c->hdr.task);
		return;
	case 0x19:
		ncp_conn_release(c->srv, c->conn, -1);
		c->conn->logged_in = false;
		c->conn->user[0] = '\0';
		return;
	case 0x21:
		negotiate(c, false);
		return;
	case 0x61:
		negotiate(c, true);
		return;
	default:
		ncp_unknown(c, false);
	}
}
