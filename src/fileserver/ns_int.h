/*
 * ns_int.h - what fn_ns.c (handle paths, directory bases, the info
 * structure, the small 0x57 calls) and fn_ns_ops.c (open/create, search,
 * rename, delete, modify) share.
 */
#ifndef IPXLAB_FILESERVER_NS_INT_H
#define IPXLAB_FILESERVER_NS_INT_H

#include "srv_int.h"

enum { NS_DOS = 0, NS_LONG = 4 };
#define NS_MAX_COMP 40		/* components of one handle path */

/* NetWare's return-info mask bits (RIM_*, ncpfs; INFO_MSK_*, mars_nwe). */
enum {
	NS_RIM_NAME = 0x0001,
	NS_RIM_SPACE = 0x0002,
	NS_RIM_ATTR = 0x0004,
	NS_RIM_SIZE = 0x0008,
	NS_RIM_TOTAL_SIZE = 0x0010,
	NS_RIM_EA = 0x0020,
	NS_RIM_ARCHIVE = 0x0040,
	NS_RIM_MODIFY = 0x0080,
	NS_RIM_CREATE = 0x0100,
	NS_RIM_NS_INFO = 0x0200,
	NS_RIM_DIR = 0x0400,
	NS_RIM_RIGHTS = 0x0800,
};

/* A handle path's fixed part: volume, base (LE), style, component count. */
struct ns_hpath {
	uint8_t vol;
	uint32_t base;
	uint8_t style;		/* 0 dir handle, 1 dir base, 0xFF none */
	uint8_t ncomp;
};

struct ns_comp {
	const uint8_t *p;
	uint8_t len;
};

/* A resolved handle path. */
struct ns_ent {
	struct ncp_path dir;	/* the directory holding the entry */
	bool root;		/* the entry is the volume root (dir depth 0) */
	bool exists;
	char dos[NCP_NAME_LEN + 1];	/* its DOS name (real or alias) */
	char host[NCP_LONG_MAX + 1];	/* its host name; the name asked
					 * for when it does not exist */
	char asked[NCP_LONG_MAX + 1];	/* the last name as asked */
	struct stat st;
};

void ns_put16(struct ncp_wr *w, uint16_t v);	/* little-endian */
void ns_put32(struct ncp_wr *w, uint32_t v);
uint16_t ns_get16(struct ncp_rd *r);
uint32_t ns_get32(struct ncp_rd *r);

/* Read a handle path's fixed part, then (separately) its components:
 * false with c->cc set (malformed counted). */
bool ns_rd_hpath(struct ncp_call *c, struct ns_hpath *h);
bool ns_rd_comps(struct ncp_call *c, const struct ns_hpath *h,
		 struct ns_comp *comp);
/* A name space this server has: true, else 0xBF counted. */
bool ns_ok(struct ncp_call *c, uint8_t ns);
/* Resolve a handle path in name space ns: a completion code. The last
 * component may be missing (e->exists false, e->host the name asked). */
uint8_t ns_resolve(struct ncp_call *c, uint8_t ns, const struct ns_hpath *h,
		   const struct ns_comp *comp, struct ns_ent *e);
/* The same, for a handle path read from the request. */
bool ns_rd_resolve(struct ncp_call *c, uint8_t ns, struct ns_ent *e);
/* The full path of an existing entry (dir + its DOS name). */
void ns_full_path(const struct ns_ent *e, struct ncp_path *out);
/* The 76-byte NetWare info structure of an entry, then its name in name
 * space ns (length-prefixed) when 'rim' asks for it; the entry's base is
 * remembered. */
void ns_put_info(struct ncp_call *c, const struct ns_ent *e, uint32_t rim,
		 uint8_t ns);
/* Remember an entry's directory base (its inode's low 32 bits). */
uint32_t ns_base_of(struct ncp_call *c, const struct ns_ent *e);
/* Find the entry of a base given out before: a completion code. */
uint8_t ns_base_find(struct ncp_call *c, uint8_t vol, uint32_t base,
		     struct ns_ent *e);
/* Open the directory holding an entry: an fd, or -1 with c->cc set. */
int ns_open_parent(struct ncp_call *c, const struct ns_ent *e);
/* The host name a new entry gets: the DOS name upper case, or the LONG
 * name as asked; false with c->cc set if it is not a name there. */
bool ns_new_name(struct ncp_call *c, uint8_t ns, const char *asked,
		 char *out);
/* The rights byte the replies give for entry e: a directory's own, a
 * file's directory's (ncp_rights_byte; without a store as before). */
uint8_t ns_rights(struct ncp_call *c, const struct ns_ent *e);
/* The directory whose rights decide for e: itself if it is one (or the
 * root), else the directory it is in. */
void ns_rights_dir(const struct ns_ent *e, struct ncp_path *out);

/* fn_ns_ops.c */
void ns_open_create(struct ncp_call *c, uint8_t ns);	/* 0x01 */
void ns_search(struct ncp_call *c, uint8_t ns);		/* 0x03 */
void ns_search_set(struct ncp_call *c, uint8_t ns);	/* 0x14 */
void ns_rename(struct ncp_call *c, uint8_t ns);		/* 0x04 */
void ns_modify(struct ncp_call *c, uint8_t ns);		/* 0x07 */
void ns_delete(struct ncp_call *c, uint8_t ns);		/* 0x08 */

#endif
