/*
 * fn_bindery.c - bindery scans and properties: 0x17 0x37 Scan Bindery
 * Object, 0x17 0x3C Scan Property and 0x17 0x3D Read Property Value,
 * over the server's users and
 * the file servers it knows (itself and those heard by SAP), so that
 * ncpfs's slist, nwbols, nwboprops and nwbpvalues show them. Layouts as Wireshark's NCP
 * dissector (ncp2222.py) and the ncpfs library read them.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ipxlab/bytes.h"
#include "ipxlab/sap.h"
#include "srv_int.h"

/* One bindery object, as a scan shows it. */
struct bobj {
	uint32_t id;
	uint16_t type;
	char name[48];
	struct ipx_addr addr;	/* file servers: NET_ADDRESS */
};

/* A server not heard for this long is gone (SAP's expiry). */
#define SEEN_EXPIRY (180 * IPX_SEC)

/* File servers get IDs from their names (FNV-1a, in 0x40000000..
 * 0x7FFFFFFF), so a scan keeps its place while SAP's table changes. */
static uint32_t name_id(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return 0x40000000u | (h & 0x3FFFFFFFu);
}

/* The i-th object: users (only to a logged-in connection, as 0x35), this
 * server, then the other file servers heard by SAP in the last 180 s. False past the end. */
static bool object_at(const struct ncp_call *c, size_t i, struct bobj *o)
{
	const struct ncp_server *srv = c->srv;
	size_t nu = c->conn->logged_in ? srv->nusers : 0;

	memset(o, 0, sizeof(*o));
	if (i < nu) {
		o->id = srv->users[i].id;
		o->type = NCP_OBJ_USER;
		snprintf(o->name, sizeof(o->name), "%s", srv->users[i].name);
		return true;
	}
	i -= nu;
	o->type = IPX_SAP_FILE_SERVER;
	if (i == 0) {
		snprintf(o->name, sizeof(o->name), "%s", srv->name);
		o->id = name_id(o->name);
		ipx_node_address(srv->node, &o->addr);
		o->addr.socket = NCP_SOCKET;
		return true;
	}
	i--;
	for (size_t k = 0; k < srv->nseen; k++) {
		const struct ncp_seen *e = &srv->seen[k];

		if (ipx_loop_now(srv->loop) - e->heard > SEEN_EXPIRY)
			continue;
		if (i-- == 0) {
			snprintf(o->name, sizeof(o->name), "%s", e->name);
			o->id = name_id(o->name);
			o->addr = e->addr;
			return true;
		}
	}
	return false;
}

void ncp_bindery_on_sap(const struct ipx_header *hdr,
			const struct ipx_sap_msg *msg, void *ctx)
{
	struct ncp_server *srv = ctx;
	ipx_time now = ipx_loop_now(srv->loop);

	for (size_t i = 0; i < msg->count; i++) {
		const struct ipx_sap_entry *e = &msg->entries[i];
		size_t k;

		if (e->type != IPX_SAP_FILE_SERVER)
			continue;
		if (!strcasecmp(e->name, srv->name)) {
			struct ipx_addr me;

			/* Another server of our name, answering for itself
			 * (a router's table may still hold a dead one). */
			ipx_node_address(srv->node, &me);
			if (e->hops < 16 &&
			    ipx_node_eq(hdr->src.node, e->addr.node) &&
			    !ipx_node_eq(e->addr.node, me.node) &&
			    !srv->name_taken) {
				srv->name_taken = true;
				srv->taken_by = e->addr;
			}
			continue;
		}
		for (k = 0; k < srv->nseen; k++)
			if (!strcasecmp(srv->seen[k].name, e->name))
				break;
		if (e->hops >= 16) {	/* going down */
			if (k < srv->nseen)
				srv->seen[k] = srv->seen[--srv->nseen];
			continue;
		}
		if (k == srv->nseen && k == NCP_SEEN_MAX) {
			/* Full: take the place of one gone silent, if any. */
			for (k = 0; k < srv->nseen; k++)
				if (now - srv->seen[k].heard > SEEN_EXPIRY)
					break;
			if (k == srv->nseen)
				continue;
		} else if (k == srv->nseen) {
			srv->nseen++;
		}
		snprintf(srv->seen[k].name, sizeof(srv->seen[k].name), "%s",
			 e->name);
		srv->seen[k].addr = e->addr;
		srv->seen[k].heard = now;
	}
}

static bool matches(const struct bobj *o, uint16_t type, const char *pat)
{
	return (type == 0xFFFF || type == o->type) &&
	       ncp_wild_match(pat, o->name);
}

/* Read an object name or pattern (at most 47 bytes), upper-cased. */
static bool rd_name(struct ncp_call *c, char *out)
{
	if (ncp_rdstr(&c->rd, out, 48) < 0 || c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	for (char *p = out; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return true;
}

/* +0 last object ID BE4 (0xFFFFFFFF: from the start), +4 type BE2
 * (0xFFFF any), +6 name pattern. Reply: ID BE4, type BE2, name 48, flags,
 * security, has properties; 0xFC when nothing more matches. */
static void scan_object(struct ncp_call *c)
{
	uint32_t last = ncp_rd32(&c->rd);
	uint16_t type = ncp_rd16(&c->rd);
	char pat[48];
	struct bobj o;
	size_t i = 0;

	if (!rd_name(c, pat))
		return;
	if (last != 0xFFFFFFFFu && last != 0) {
		while (object_at(c, i, &o) && o.id != last)
			i++;
		i++;
	}
	for (; object_at(c, i, &o); i++) {
		if (!matches(&o, type, pat))
			continue;
		ncp_wr32(&c->wr, o.id);
		ncp_wr16(&c->wr, o.type);
		ncp_wrfixed(&c->wr, o.name, 48);
		/* Flags: 0 static (users), 1 dynamic (file servers, which
		 * NetWare makes from SAP), as mars_nwe's O_FL_DYNA. */
		ncp_wr8(&c->wr, o.type == NCP_OBJ_USER ? 0 : 1);
		/* Security: users read by objects, file servers by anyone. */
		ncp_wr8(&c->wr, o.type == NCP_OBJ_USER ? 0x31 : 0x40);
		ncp_wr8(&c->wr, o.type == NCP_OBJ_USER ? 0 : 1);
		return;
	}
	c->cc = NCP_CC_NO_OBJECT;
}

/* The object of 'type' and 'name'; false (0xFC) if there is none. */
static bool find_object(struct ncp_call *c, uint16_t type, const char *name,
			struct bobj *o)
{
	for (size_t i = 0; object_at(c, i, o); i++)
		if (o->type == type && !strcmp(o->name, name))
			return true;
	c->cc = NCP_CC_NO_OBJECT;
	return false;
}

/* +0 type BE2, +2 object name, then last sequence BE4 (0xFFFFFFFF: from
 * the start), property pattern. Reply: name 16, flags, security, sequence
 * BE4, has value (0xFF), more properties. A file server's only property
 * is NET_ADDRESS, sequence 1; no more is 0xFB (no such property). */
static void scan_property(struct ncp_call *c)
{
	uint16_t type = ncp_rd16(&c->rd);
	char name[48], pat[48];
	uint32_t last;
	struct bobj o;

	if (!rd_name(c, name))
		return;
	last = ncp_rd32(&c->rd);
	if (!rd_name(c, pat) || !find_object(c, type, name, &o))
		return;
	if (o.type != IPX_SAP_FILE_SERVER || last != 0xFFFFFFFFu ||
	    !ncp_wild_match(pat, "NET_ADDRESS")) {
		c->cc = NCP_CC_UNKNOWN_REQUEST;
		return;
	}
	ncp_wrfixed(&c->wr, "NET_ADDRESS", 16);
	ncp_wr8(&c->wr, 1);	/* dynamic item */
	ncp_wr8(&c->wr, 0x40);	/* read by anyone, written by the server */
	ncp_wr32(&c->wr, 1);
	ncp_wr8(&c->wr, 0xFF);	/* has a value */
	ncp_wr8(&c->wr, 0);	/* no more properties */
}

/* +0 type BE2, +2 object name, then segment (1), property name. Reply:
 * 128 bytes of value, more segments, property flags. A file server has
 * NET_ADDRESS (network BE4, node 6, socket BE2) in segment 1; anything
 * else is "no such property" (0xFB). */
static void read_property(struct ncp_call *c)
{
	uint16_t type = ncp_rd16(&c->rd);
	char name[48], prop[48];
	uint8_t seg, val[128] = { 0 };
	struct bobj o;

	if (!rd_name(c, name))
		return;
	seg = ncp_rd8(&c->rd);
	if (!rd_name(c, prop))
		return;
	if (!find_object(c, type, name, &o))
		return;
	if (o.type != IPX_SAP_FILE_SERVER || strcmp(prop, "NET_ADDRESS") ||
	    seg != 1) {
		c->cc = NCP_CC_UNKNOWN_REQUEST;	/* 0xFB: no such property */
		return;
	}
	ipx_put32(val, o.addr.net);
	memcpy(val + 4, o.addr.node, IPX_NODE_LEN);
	ipx_put16(val + 10, o.addr.socket);
	ncp_wrn(&c->wr, val, sizeof(val));
	ncp_wr8(&c->wr, 0);	/* no more segments */
	ncp_wr8(&c->wr, 1);	/* a dynamic item property */
}

bool ncp_fn_bindery(struct ncp_call *c, uint8_t sub)
{
	switch (sub) {
	case 0x37:
		scan_object(c);
		return true;
	case 0x3C:
		scan_property(c);
		return true;
	case 0x3D:
		read_property(c);
		return true;
	default:
		return false;
	}
}
