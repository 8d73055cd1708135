/*
 * bindery.c - the server's users: SUPERVISOR and GUEST, and the users of
 * a file given with --users ("NAME PASSWORD" per line, '-' for an empty
 * password, '#' comments; a name twice, in any case, is refused with
 * file:line). SUPERVISOR cannot log in until the file gives
 * it a password (as mars_nwe: no way to have a supervisor without one);
 * GUEST has an empty password unless the file says otherwise.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ipxlab/err.h"
#include "srv_int.h"

#define MAX_USERS 1024

static struct ncp_user *add(struct ncp_server *srv, const char *name)
{
	struct ncp_user *u = NULL, *nu;

	for (size_t i = 0; i < srv->nusers; i++)
		if (!strcasecmp(srv->users[i].name, name))
			return &srv->users[i];
	if (srv->nusers == MAX_USERS)
		return NULL;
	nu = realloc(srv->users, (srv->nusers + 1) * sizeof(*nu));
	if (!nu)
		return NULL;
	srv->users = nu;
	u = &srv->users[srv->nusers];
	memset(u, 0, sizeof(*u));
	for (size_t i = 0; name[i] && i < sizeof(u->name) - 1; i++)
		u->name[i] = (char)toupper((unsigned char)name[i]);
	/* Object IDs: SUPERVISOR 1 as on NetWare, the rest counted up. */
	u->id = srv->nusers == 0 ? 1 : 0x10000 + (uint32_t)srv->nusers;
	srv->nusers++;
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

int ncp_bindery_load(struct ncp_server *srv, const char *file, char *err,
		     size_t errlen)
{
	struct ncp_user *sup = add(srv, "SUPERVISOR");
	struct ncp_user *guest = add(srv, "GUEST");
	char line[512];
	unsigned lineno = 0;
	FILE *f;

	if (!sup || !guest) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	guest->has_password = true;	/* the empty one */
	if (!file)
		return IPX_OK;
	f = fopen(file, "r");
	if (!f) {
		snprintf(err, errlen, "--users %s: %s", file, strerror(errno));
		return IPX_EIO;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[64], pass[160], extra[8];
		struct ncp_user *u;
		int n;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line too long", file,
				 lineno);
			fclose(f);
			return IPX_ECONFIG;
		}
		n = sscanf(line, "%63s %159s %7s", name, pass, extra);
		if (n <= 0 || name[0] == '#')
			continue;
		if (n != 2 || !user_name_ok(name) || strlen(pass) > 127) {
			snprintf(err, errlen, "%s:%u: expected 'NAME PASSWORD' "
				 "(name: 1-47 letters, digits, '_' '-'; "
				 "password at most 127, '-' = empty)",
				 file, lineno);
			fclose(f);
			return IPX_ECONFIG;
		}
		u = (struct ncp_user *)ncp_bindery_find(srv, name);
		if (u && u->line) {
			snprintf(err, errlen, "%s:%u: user %s given twice "
				 "(first at line %u; names ignore case)",
				 file, lineno, u->name, u->line);
			fclose(f);
			return IPX_ECONFIG;
		}
		u = add(srv, name);
		if (!u) {
			snprintf(err, errlen, "%s:%u: too many users", file,
				 lineno);
			fclose(f);
			return IPX_ECONFIG;
		}
		snprintf(u->password, sizeof(u->password), "%s",
			 strcmp(pass, "-") ? pass : "");
		u->has_password = true;
		u->line = lineno;
	}
	fclose(f);
	return IPX_OK;
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
