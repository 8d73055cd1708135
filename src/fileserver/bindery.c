/*
 * bindery.c - the server's users: SUPERVISOR (object ID 1) and GUEST
 * (0x00010001), and those of a file given with --users. The file keeps
 * NetWare's password hash, never a password: "NAME ID HASH" per line (ID
 * 8 hex digits, HASH the 32 hex digits of ncp_pw_hash of the upper-cased
 * password with that ID), as `ipxlab server --passwd` writes it. A line
 * "NAME PASSWORD" ('-' for an empty one), written by hand, is read too
 * and hashed at once; the next --passwd rewrites it hashed. '#' starts a
 * comment; a name twice, in any case, is refused with file:line.
 * SUPERVISOR cannot log in until the file gives it a password (as
 * mars_nwe: no supervisor without one); GUEST has the empty password
 * unless the file says otherwise. Users of the clear form get IDs from
 * 0x00010002 up in file order, past those the file names.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp_crypt.h"
#include "srv_int.h"

#define MAX_USERS 1024
#define ID_SUPERVISOR 0x00000001u
#define ID_GUEST 0x00010001u
#define ID_FIRST 0x00010002u

/* One line of the file, before IDs are given out. */
struct line {
	char name[48];
	uint32_t id;		/* 0: the clear form, ID to be given */
	uint8_t hash[NCP_HASH_LEN];
	char clear[128];
	unsigned no;
};

static struct ncp_user *add(struct ncp_server *srv, const char *name,
			    uint32_t id)
{
	struct ncp_user *u, *nu;

	if (srv->nusers == MAX_USERS)
		return NULL;
	nu = realloc(srv->users, (srv->nusers + 1) * sizeof(*nu));
	if (!nu)
		return NULL;
	srv->users = nu;
	u = &srv->users[srv->nusers++];
	memset(u, 0, sizeof(*u));
	for (size_t i = 0; name[i] && i < sizeof(u->name) - 1; i++)
		u->name[i] = (char)toupper((unsigned char)name[i]);
	u->id = id;
	return u;
}

static bool user_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 47)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

static bool parse_hex(const char *s, uint8_t *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char b[3] = { s[2 * i], s[2 * i + 1], 0 };

		if (!isxdigit((unsigned char)b[0]) ||
		    !isxdigit((unsigned char)b[1]))
			return false;
		out[i] = (uint8_t)strtoul(b, NULL, 16);
	}
	return true;
}

void ncp_user_set_password(struct ncp_user *u, const char *pw)
{
	char up[128];
	size_t n = ncp_pw_upper(pw, up, sizeof(up));

	ncp_pw_hash(u->id, up, n, u->hash);
	memset(up, 0, sizeof(up));
	u->has_password = true;
}

/* One line into l: 1 taken, 0 blank or comment, -1 refused (err set). */
static int parse_line(const char *file, unsigned no, const char *text,
		      struct line *l, char *err, size_t errlen)
{
	char name[64], a[160], b[80], extra[8];
	uint8_t idb[4];
	int n = sscanf(text, "%63s %159s %79s %7s", name, a, b, extra);

	if (n <= 0 || name[0] == '#')
		return 0;
	memset(l, 0, sizeof(*l));
	l->no = no;
	if (n == 2 && user_name_ok(name) && strlen(a) <= 127) {
		snprintf(l->clear, sizeof(l->clear), "%s",
			 strcmp(a, "-") ? a : "");
	} else if (n == 3 && user_name_ok(name) && parse_hex(a, idb, 4) &&
		   parse_hex(b, l->hash, NCP_HASH_LEN)) {
		l->id = ipx_get32(idb);
	} else {
		snprintf(err, errlen, "%s:%u: expected 'NAME ID HASH' (ID 8 "
			 "hex digits, HASH 32) or 'NAME PASSWORD' (name: 1-47 "
			 "letters, digits, '_' '-'; password at most 127, "
			 "'-' = empty)", file, no);
		return -1;
	}
	for (size_t i = 0; name[i]; i++)
		l->name[i] = (char)toupper((unsigned char)name[i]);
	return 1;
}

/* The lines of the file into *out (*n of them). */
static int read_lines(const char *file, struct line **out, size_t *n,
		      char *err, size_t errlen)
{
	char text[512];
	unsigned no = 0;
	FILE *f = fopen(file, "r");

	*out = NULL;
	*n = 0;
	if (!f) {
		snprintf(err, errlen, "--users %s: %s", file, strerror(errno));
		return IPX_EIO;
	}
	while (fgets(text, sizeof(text), f)) {
		struct line l, *nl;
		int r;

		no++;
		if (!strchr(text, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line too long", file, no);
			break;
		}
		r = parse_line(file, no, text, &l, err, errlen);
		if (r < 0)
			break;
		if (r == 0)
			continue;
		for (size_t i = 0; i < *n; i++)
			if (!strcmp((*out)[i].name, l.name)) {
				snprintf(err, errlen, "%s:%u: user %s given "
					 "twice (first at line %u; names "
					 "ignore case)", file, no, l.name,
					 (*out)[i].no);
				r = -1;
			}
		nl = r < 0 || *n == MAX_USERS ? NULL
		     : realloc(*out, (*n + 1) * sizeof(**out));
		if (!nl) {
			if (r >= 0)
				snprintf(err, errlen, "%s:%u: too many users",
					 file, no);
			break;
		}
		*out = nl;
		(*out)[(*n)++] = l;
	}
	memset(text, 0, sizeof(text));
	if (!ferror(f) && feof(f)) {
		fclose(f);
		return IPX_OK;
	}
	fclose(f);
	free(*out);
	*out = NULL;
	return IPX_ECONFIG;
}

/* The ID a line of the hashed form may have: false with err set. */
static bool id_ok(const struct ncp_server *srv, const char *file,
		  const struct line *l, char *err, size_t errlen)
{
	uint32_t fixed = !strcmp(l->name, "SUPERVISOR") ? ID_SUPERVISOR
			 : !strcmp(l->name, "GUEST")    ? ID_GUEST
							: 0;
	bool taken = l->id == 0 || (!fixed && (l->id == ID_SUPERVISOR ||
					       l->id == ID_GUEST));

	for (size_t i = 2; i < srv->nusers; i++)
		taken |= srv->users[i].id == l->id;
	if ((fixed && l->id != fixed) || (!fixed && taken)) {
		snprintf(err, errlen, "%s:%u: user %s cannot have ID %08X "
			 "(SUPERVISOR is 00000001, GUEST 00010001, each ID "
			 "once)", file, l->no, l->name, (unsigned)l->id);
		return false;
	}
	return true;
}

static uint32_t free_id(const struct ncp_server *srv, const struct line *ls,
			size_t n, uint32_t from)
{
	for (uint32_t id = from;; id++) {
		bool used = false;

		for (size_t i = 0; i < srv->nusers && !used; i++)
			used = srv->users[i].id == id;
		for (size_t i = 0; i < n && !used; i++)
			used = ls[i].id == id;
		if (!used)
			return id;
	}
}

/* The users of the lines: hashed ones with their IDs, then clear ones. */
static int take_lines(struct ncp_server *srv, const char *file,
		      struct line *ls, size_t n, char *err, size_t errlen)
{
	uint32_t next = ID_FIRST;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			struct line *l = &ls[i];
			struct ncp_user *u;

			if ((pass == 0) != (l->id != 0))
				continue;
			if (pass == 0 && !id_ok(srv, file, l, err, errlen))
				return IPX_ECONFIG;
			u = (struct ncp_user *)ncp_bindery_find(srv, l->name);
			if (!u && pass == 1)
				next = free_id(srv, ls, n, next);
			if (!u)
				u = add(srv, l->name, pass ? next : l->id);
			if (!u) {
				snprintf(err, errlen, "out of memory");
				return IPX_ENOMEM;
			}
			u->line = l->no;
			if (pass == 0) {
				memcpy(u->hash, l->hash, NCP_HASH_LEN);
				u->has_password = true;
			} else {
				ncp_user_set_password(u, l->clear);
				srv->clear_lines++;
			}
		}
	return IPX_OK;
}

int ncp_bindery_load(struct ncp_server *srv, const char *file, char *err,
		     size_t errlen)
{
	struct ncp_user *guest;
	struct line *ls;
	size_t n;
	int rc;

	if (!add(srv, "SUPERVISOR", ID_SUPERVISOR) ||
	    !(guest = add(srv, "GUEST", ID_GUEST))) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	ncp_user_set_password(guest, "");
	if (!file)
		return IPX_OK;
	rc = read_lines(file, &ls, &n, err, errlen);
	if (rc != IPX_OK)
		return rc;
	rc = take_lines(srv, file, ls, n, err, errlen);
	memset(ls, 0, n * sizeof(*ls));
	free(ls);
	return rc;
}

int ncp_bindery_save(const struct ncp_server *srv, const char *file,
		     char *err, size_t errlen)
{
	char tmp[4200];
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.new", file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return IPX_EIO;
	}
	fprintf(f, "# ipxlab users: NAME ID HASH (NetWare's password hash "
		   "of the upper-cased\n# password with the object ID; set "
		   "with ipxlab server --passwd)\n");
	for (size_t i = 0; i < srv->nusers; i++) {
		const struct ncp_user *u = &srv->users[i];

		if (!u->line || !u->has_password)
			continue;
		fprintf(f, "%s %08X ", u->name, (unsigned)u->id);
		for (int k = 0; k < NCP_HASH_LEN; k++)
			fprintf(f, "%02X", u->hash[k]);
		fputc('\n', f);
	}
	if (fflush(f) || fsync(fd) || fclose(f) || rename(tmp, file)) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		unlink(tmp);
		return IPX_EIO;
	}
	return IPX_OK;
}

int ncp_users_set_password(const char *file, const char *user,
			   const char *password, char *err, size_t errlen)
{
	struct ncp_server *srv = calloc(1, sizeof(*srv));
	struct ncp_user *u;
	int rc;

	if (!srv) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	rc = ncp_bindery_load(srv, access(file, F_OK) == 0 ? file : NULL, err,
			      errlen);
	if (rc == IPX_OK && (!user_name_ok(user) || strlen(password) > 127)) {
		snprintf(err, errlen, "user names are 1-47 letters, digits, "
			 "'_' '-'; passwords at most 127 characters");
		rc = IPX_EINVAL;
	}
	u = rc ? NULL : (struct ncp_user *)ncp_bindery_find(srv, user);
	if (rc == IPX_OK && !u) {
		uint32_t id = ID_FIRST;

		for (size_t i = 0; i < srv->nusers; i++)
			if (srv->users[i].id >= id)
				id = srv->users[i].id + 1;
		u = add(srv, user, id);
		if (!u) {
			snprintf(err, errlen, "too many users");
			rc = IPX_ENOMEM;
		}
	}
	if (rc == IPX_OK) {
		ncp_user_set_password(u, password);
		u->line = u->line ? u->line : (unsigned)srv->nusers;
		rc = ncp_bindery_save(srv, file, err, errlen);
	}
	free(srv->users);
	free(srv);
	return rc;
}

const struct ncp_user *ncp_bindery_find(const struct ncp_server *srv,
					const char *name)
{
	for (size_t i = 0; i < srv->nusers; i++)
		if (!strcasecmp(srv->users[i].name, name))
			return &srv->users[i];
	return NULL;
}

const struct ncp_user *ncp_bindery_by_id(const struct ncp_server *srv,
					 uint32_t id)
{
	for (size_t i = 0; i < srv->nusers; i++)
		if (srv->users[i].id == id)
			return &srv->users[i];
	return NULL;
}
