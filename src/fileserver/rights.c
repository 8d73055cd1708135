/*
 * rights.c - trustee rights: the store (--rights FILE, one "PATH USER
 * RIGHTS" line per assignment, read with file:line errors and written
 * back whole on every change), the effective rights of a connection in
 * a directory and the check every request that touches files makes.
 *
 * The rule (NetWare 3.x without inherited rights masks): a user's
 * rights in a directory are those of its assignment there, else those
 * it has in the parent directory; the volume root starts from none.
 * Supervisory (S) anywhere on the way gives every right from there down;
 * SUPERVISOR (object 1) has every right everywhere. Files have the rights
 * of their directory. A read-only volume allows at most Read and File
 * Scan. Without a store every logged-in user has every right, as before.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ipxlab/err.h"
#include "srv_int.h"

#define MAX_TRUSTEES 4096
static const char letters[] = "SRWCEMFA";
static const uint16_t bits[] = { NCP_TR_SUPER, NCP_TR_READ, NCP_TR_WRITE,
				 NCP_TR_CREATE, NCP_TR_ERASE, NCP_TR_MODIFY,
				 NCP_TR_SCAN, NCP_TR_ACCESS };

/* "RWF" (any order and case; "-" none) to bits: -1 if a letter is bad. */
static int rights_parse(const char *s)
{
	int r = 0;

	if (!strcmp(s, "-"))
		return 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		const char *k = strchr(letters, toupper((unsigned char)*s));

		if (!k)
			return -1;
		r |= bits[k - letters];
	}
	return r;
}

static void rights_text(uint16_t r, char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (r & bits[i])
			out[n++] = letters[i];
	if (!n)
		out[n++] = '-';
	out[n] = '\0';
}

bool ncp_path_same(const struct ncp_path *a, const struct ncp_path *b)
{
	if (a->vol != b->vol || a->depth != b->depth)
		return false;
	for (int i = 0; i < a->depth; i++)
		if (strcmp(a->comp[i], b->comp[i]))
			return false;
	return true;
}

/* Whether 'p' is 'top' or below it. */
static bool path_under(const struct ncp_path *p, const struct ncp_path *top)
{
	if (p->vol != top->vol || p->depth < top->depth)
		return false;
	for (int i = 0; i < top->depth; i++)
		if (strcmp(p->comp[i], top->comp[i]))
			return false;
	return true;
}

/* "VOL:DIR\SUB" (or '/') to a path of this server: NULL, or the error. */
static const char *path_parse(const struct ncp_server *srv, const char *s,
			      struct ncp_path *out)
{
	const char *colon = strchr(s, ':');
	size_t vl = colon ? (size_t)(colon - s) : 0;

	memset(out, 0, sizeof(*out));
	out->vol = -1;
	for (size_t i = 0; colon && i < srv->nvols; i++)
		if (strlen(srv->vols[i].name) == vl &&
		    !strncasecmp(srv->vols[i].name, s, vl))
			out->vol = (int)i;
	if (out->vol < 0)
		return "no such volume (PATH is VOL:DIR\\SUB)";
	for (const char *p = colon + 1; *p;) {
		size_t n = strcspn(p, "\\/");

		if (n && out->depth == NCP_MAX_DEPTH)
			return "too deep a path";
		if (n && ncp_name_check(p, n, false,
					out->comp[out->depth++]))
			return "a name that is not DOS 8.3";
		p += n;
		if (*p)
			p++;
	}
	return NULL;
}

static struct ncp_trustee *find(const struct ncp_server *srv,
				const struct ncp_path *p, const char *user)
{
	for (size_t i = 0; i < srv->ntrustees; i++)
		if (ncp_path_same(&srv->trustees[i].path, p) &&
		    !strcasecmp(srv->trustees[i].user, user))
			return &srv->trustees[i];
	return NULL;
}

static int add(struct ncp_server *srv, const struct ncp_path *p,
	       const char *user, uint16_t rights)
{
	struct ncp_trustee *nt;

	if (srv->ntrustees == MAX_TRUSTEES)
		return -1;
	nt = realloc(srv->trustees, (srv->ntrustees + 1) * sizeof(*nt));
	if (!nt)
		return -1;
	srv->trustees = nt;
	nt = &srv->trustees[srv->ntrustees++];
	memset(nt, 0, sizeof(*nt));
	nt->path = *p;
	nt->path.dir_form = false;
	for (size_t i = 0; user[i] && i < sizeof(nt->user) - 1; i++)
		nt->user[i] = (char)toupper((unsigned char)user[i]);
	nt->rights = rights;
	return 0;
}

/* One line of the store: NULL, or what is wrong with it. */
static const char *parse_line(struct ncp_server *srv, char *line)
{
	char *tok[4] = { NULL };
	struct ncp_path p;
	const char *e;
	int n = 0, r;

	line[strcspn(line, "#\r\n")] = '\0';
	for (char *t = strtok(line, " \t"); t; t = strtok(NULL, " \t"))
		if (n < 4)
			tok[n++] = t;
		else
			return "more than PATH USER RIGHTS";
	if (n == 0)
		return NULL;
	if (n != 3)
		return n == 4 ? "more than PATH USER RIGHTS"
			      : "needs PATH USER RIGHTS";
	if ((e = path_parse(srv, tok[0], &p)))
		return e;
	if (!ncp_bindery_find(srv, tok[1]))
		return "no such user";
	if ((r = rights_parse(tok[2])) < 0)
		return "rights are letters of SRWCEMFA, or - for none";
	if (find(srv, &p, tok[1]))
		return "that user has an assignment there already";
	if (add(srv, &p, tok[1], (uint16_t)r))
		return "too many assignments";
	return NULL;
}

/* The store must not be where clients can reach it (inside a volume):
 * NULL, or what is wrong. */
static const char *outside_volumes(const struct ncp_server *srv,
				   const char *file, char *why, size_t cap)
{
	char dir[4096], real[PATH_MAX], vol[PATH_MAX];
	char *slash;
	size_t n;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (!realpath(dir, real)) {
		snprintf(why, cap, "--rights %s: %s: %s", file, dir,
			 strerror(errno));
		return why;
	}
	for (size_t i = 0; i < srv->nvols; i++) {
		if (!realpath(srv->vols[i].dir, vol))
			continue;
		n = strlen(vol);
		if (!strncmp(real, vol, n) && (real[n] == '/' || !real[n] ||
					       n == 1)) {
			snprintf(why, cap, "--rights %s is inside volume %s, "
				 "where clients could change it: keep it "
				 "outside the volumes", file,
				 srv->vols[i].name);
			return why;
		}
	}
	return NULL;
}

int ncp_rights_load(struct ncp_server *srv, const char *file, char *err,
		    size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	const char *e = NULL;
	FILE *f;

	if (!file)
		return IPX_OK;
	if (outside_volumes(srv, file, err, errlen))
		return IPX_EINVAL;
	srv->rights_file = strdup(file);
	if (!srv->rights_file) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	f = fopen(file, "r");
	if (!f && errno == ENOENT)
		return IPX_OK;	/* an empty store, made on the first grant */
	if (!f) {
		snprintf(err, errlen, "--rights %s: %s", file, strerror(errno));
		return IPX_EIO;
	}
	while (!e && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		e = len > 1024 ? "line too long"
		    : memchr(line, '\0', (size_t)len) ? "a NUL byte"
						      : parse_line(srv, line);
	}
	free(line);
	fclose(f);
	if (e) {
		snprintf(err, errlen, "%s:%u: %s", file, lineno, e);
		return IPX_EINVAL;
	}
	return IPX_OK;
}

void ncp_rights_free(struct ncp_server *srv)
{
	free(srv->trustees);
	free(srv->rights_file);
	srv->trustees = NULL;
	srv->rights_file = NULL;
	srv->ntrustees = 0;
}

/* Write the whole store (a new file renamed over the old): 0 or -1. */
static int save(const struct ncp_server *srv)
{
	char tmp[4200], path[300], r[12];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.new", srv->rights_file);
	if (!(f = fopen(tmp, "w")))
		return -1;
	fprintf(f, "# ipxlab trustee rights: PATH USER RIGHTS (of SRWCEMFA)\n");
	for (size_t i = 0; i < srv->ntrustees; i++) {
		const struct ncp_trustee *t = &srv->trustees[i];

		ncp_path_format(srv, &t->path, path, sizeof(path));
		rights_text(t->rights, r);
		fprintf(f, "%s %s %s\n", path, t->user, r);
	}
	bad = ferror(f);
	if (fclose(f) || bad || rename(tmp, srv->rights_file)) {
		remove(tmp);
		return -1;
	}
	return 0;
}

uint8_t ncp_rights_set(struct ncp_server *srv, const struct ncp_path *dir,
		       const char *user, int rights)
{
	struct ncp_trustee *t = find(srv, dir, user), old;
	size_t n = srv->ntrustees;

	if (rights < 0) {
		if (!t)
			return NCP_CC_TIMEOUT;	/* 0xFE: no such trustee */
		old = *t;
		*t = srv->trustees[--srv->ntrustees];
		if (save(srv)) {
			srv->trustees[srv->ntrustees++] = *t;
			*t = old;
			return NCP_CC_DIR_IO;
		}
		return NCP_CC_OK;
	}
	if (t) {
		old = *t;
		t->rights = (uint16_t)rights;
	} else if (add(srv, dir, user, (uint16_t)rights)) {
		return NCP_CC_NO_MEMORY;
	}
	if (save(srv)) {
		if (t)
			*t = old;
		srv->ntrustees = n;
		return NCP_CC_DIR_IO;
	}
	return NCP_CC_OK;
}

void ncp_rights_moved(struct ncp_server *srv, const struct ncp_path *from,
		      const struct ncp_path *to)
{
	bool changed = false;

	for (size_t i = 0; i < srv->ntrustees;) {
		struct ncp_trustee *t = &srv->trustees[i];
		struct ncp_path np;

		if (!path_under(&t->path, from)) {
			i++;
			continue;
		}
		changed = true;
		if (to) {
			np = *to;
			np.dir_form = false;
			for (int k = from->depth; k < t->path.depth &&
						  np.depth < NCP_MAX_DEPTH; k++)
				strcpy(np.comp[np.depth++], t->path.comp[k]);
		}
		if (to && np.depth - to->depth == t->path.depth - from->depth) {
			t->path = np;
			i++;
		} else {
			*t = srv->trustees[--srv->ntrustees];
		}
	}
	if (changed && srv->rights_file)
		save(srv);
}

static uint16_t stored_rights(const struct ncp_server *srv,
			      const struct ncp_conn *conn,
			      const struct ncp_path *dir)
{
	struct ncp_path p = *dir;
	uint16_t r = 0;

	for (int d = 0; d <= dir->depth; d++) {
		const struct ncp_trustee *t;

		p.depth = d;
		t = find(srv, &p, conn->user);
		if (t)
			r = t->rights;
		if (r & NCP_TR_SUPER)
			return NCP_TR_ALL | NCP_TR_SUPER;
	}
	return r;
}

uint16_t ncp_rights_of(const struct ncp_call *c, const struct ncp_path *dir)
{
	const struct ncp_server *srv = c->srv;
	uint16_t r;

	if (!c->conn->logged_in)
		r = NCP_TR_READ | NCP_TR_SCAN;
	else if (!srv->rights_file || c->conn->user_id == 1)
		r = NCP_TR_ALL | NCP_TR_SUPER;
	else
		r = stored_rights(srv, c->conn, dir);
	if (srv->vols[dir->vol].ro)
		r &= NCP_TR_READ | NCP_TR_SCAN;
	return r;
}

uint8_t ncp_rights_byte(const struct ncp_call *c, const struct ncp_path *dir)
{
	uint16_t r = ncp_rights_of(c, dir);

	/* 0x04, the 2.x Open right, goes with Read or Write. */
	return (uint8_t)((r & 0xFF) |
			 (r & (NCP_TR_READ | NCP_TR_WRITE) ? NCP_RIGHT_OPEN
							   : 0));
}

static const struct {
	uint16_t need;
	uint8_t cc;
	enum ncp_srv_refusal ref;
} ops[] = {
	[NCP_OP_READ] = { NCP_TR_READ, NCP_CC_NO_READ, NCP_SRV_REF_NO_READ_RIGHT },
	[NCP_OP_WRITE] = { NCP_TR_WRITE, NCP_CC_NO_WRITE,
			   NCP_SRV_REF_NO_WRITE_RIGHT },
	[NCP_OP_CREATE] = { NCP_TR_CREATE, NCP_CC_NO_CREATE,
			    NCP_SRV_REF_NO_CREATE_RIGHT },
	[NCP_OP_OVERWRITE] = { NCP_TR_ERASE, NCP_CC_NO_CREATE_DELETE,
			       NCP_SRV_REF_NO_ERASE_RIGHT },
	[NCP_OP_ERASE] = { NCP_TR_ERASE, NCP_CC_NO_DELETE,
			   NCP_SRV_REF_NO_ERASE_RIGHT },
	[NCP_OP_RENAME] = { NCP_TR_MODIFY, NCP_CC_NO_RENAME,
			    NCP_SRV_REF_NO_MODIFY_RIGHT },
	[NCP_OP_MOVE_INTO] = { NCP_TR_CREATE, NCP_CC_NO_RENAME,
			       NCP_SRV_REF_NO_CREATE_RIGHT },
	[NCP_OP_MODIFY] = { NCP_TR_MODIFY, NCP_CC_NO_MODIFY,
			    NCP_SRV_REF_NO_MODIFY_RIGHT },
	[NCP_OP_SCAN] = { NCP_TR_SCAN, NCP_CC_NO_SEARCH,
			  NCP_SRV_REF_NO_SCAN_RIGHT },
	[NCP_OP_MKDIR] = { NCP_TR_CREATE, NCP_CC_NO_CREATE,
			   NCP_SRV_REF_NO_CREATE_RIGHT },
	[NCP_OP_RMDIR] = { NCP_TR_ERASE, NCP_CC_NO_DELETE,
			   NCP_SRV_REF_NO_ERASE_RIGHT },
	[NCP_OP_TRUSTEE] = { NCP_TR_ACCESS, NCP_CC_NO_MODIFY,
			     NCP_SRV_REF_NO_ACCESS_RIGHT },
};

uint8_t ncp_rights_check(struct ncp_call *c, const struct ncp_path *dir,
			 enum ncp_op op)
{
	if (!c->srv->rights_file || (ncp_rights_of(c, dir) & ops[op].need))
		return NCP_CC_OK;
	return ncp_refuse(c, ops[op].ref, ops[op].cc);
}
