/*
 * names.c - DOS 8.3 names over a case-sensitive host directory, and the
 * path resolver that keeps every request inside its volume.
 *
 * A request path is parsed into canonical upper-case components first
 * (a volume prefix, '\' or '/' separators, '.' dropped, '..' taking one
 * component off and refused above the root); nothing of it reaches the
 * host until then. The host is reached only by walking from the volume's
 * directory descriptor one component at a time with openat(O_NOFOLLOW |
 * O_DIRECTORY), each component looked up case-insensitively among the
 * host names that are valid 8.3 names. Symbolic links and special files
 * are never followed or opened.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "srv_int.h"

static bool dos_char(unsigned char ch)
{
	if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
	    (ch >= '0' && ch <= '9'))
		return true;
	return ch && strchr("!#$%&'()-@^_`{}~", ch) != NULL;
}

int ncp_name_check(const char *in, size_t len, bool wild, char *out)
{
	size_t base = 0, ext = 0;
	bool dot = false, bad = false, star = false;

	if (len == 0)
		return NCP_SRV_REF_BAD_BYTES + 1;
	if (len > NCP_NAME_LEN)
		return NCP_SRV_REF_OVERLONG + 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)in[i];

		if (ch == '.') {
			if (dot || base == 0)
				bad = true;
			dot = true;
		} else if (ch == '*' || ch == '?') {
			star = true;
			dot ? ext++ : base++;
		} else if (dos_char(ch)) {
			dot ? ext++ : base++;
		} else {
			bad = true;
		}
		out[i] = (char)(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
	}
	out[len] = '\0';
	if (bad || base > 8 || ext > 3)
		return NCP_SRV_REF_BAD_BYTES + 1;
	if (star && !wild)
		return NCP_SRV_REF_WILDCARD + 1;
	return 0;
}

bool ncp_name_visible(const char *host)
{
	char tmp[NCP_NAME_LEN + 1];
	size_t n = strlen(host);

	if (n > NCP_NAME_LEN || !strcmp(host, ".") || !strcmp(host, ".."))
		return false;
	return ncp_name_check(host, n, false, tmp) == 0;
}

bool ncp_has_wild(const char *name)
{
	return strpbrk(name, "*?") != NULL;
}

static bool glob(const char *p, const char *n)
{
	for (; *p; p++, n++) {
		if (*p == '*') {
			while (p[1] == '*')
				p++;
			for (const char *k = n;; k++) {
				if (glob(p + 1, k))
					return true;
				if (!*k)
					return false;
			}
		}
		if (!*n || (*p != '?' && *p != *n))
			return false;
	}
	return *n == '\0';
}

bool ncp_wild_match(const char *pattern, const char *name)
{
	/* "*.*" is every name, with or without an extension, as in DOS. */
	if (!strcmp(pattern, "*.*"))
		return true;
	return glob(pattern, name);
}

static int find_volume(const struct ncp_server *srv, const char *name)
{
	for (size_t i = 0; i < srv->nvols; i++)
		if (!strcasecmp(srv->vols[i].name, name))
			return (int)i;
	return -1;
}

static uint8_t name_refusal(struct ncp_call *c, int ref, bool last)
{
	enum ncp_srv_refusal r = (enum ncp_srv_refusal)(ref - 1);

	if (r == NCP_SRV_REF_OVERLONG)
		return ncp_refuse(c, r, NCP_CC_BAD_PATH);
	return ncp_refuse(c, r, last ? NCP_CC_BAD_NAME : NCP_CC_BAD_PATH);
}

/* Where a path starts: the volume before its colon, or else the path of
 * directory handle dh; *i the offset of what follows. A completion code. */
static uint8_t path_start(struct ncp_call *c, uint8_t dh,
			  const uint8_t *text, const uint8_t *colon,
			  struct ncp_path *out, size_t *i)
{
	if (colon) {
		char vol[NCP_VOLNAME_MAX + 1];
		size_t n = (size_t)(colon - text);

		if (n == 0 || n > NCP_VOLNAME_MAX)
			return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME,
					  NCP_CC_NO_VOLUME);
		memcpy(vol, text, n);
		vol[n] = '\0';
		out->vol = find_volume(c->srv, vol);
		if (out->vol < 0)
			return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME,
					  NCP_CC_NO_VOLUME);
		*i = n + 1;
	} else {
		if (dh == 0 || dh > NCP_DIR_HANDLES ||
		    !c->conn->dirh[dh - 1].used)
			return ncp_refuse(c, NCP_SRV_REF_BAD_DIR_HANDLE,
					  NCP_CC_BAD_DIR_HANDLE);
		*out = c->conn->dirh[dh - 1].path;
	}
	return NCP_CC_OK;
}

/*
 * Before login only SYS:LOGIN and what is inside it, and the root of SYS
 * as the way there: the root itself, or a wildcard in it, whose listings
 * show LOGIN alone (ncp_list_path), as a NetWare server shows a user the
 * parents of a directory he has rights in.
 */
bool ncp_login_may_see(const struct ncp_path *p, const char *last,
		       bool wild)
{
	return p->vol == 0 &&
	       ((p->depth >= 1 && !strcmp(p->comp[0], "LOGIN")) ||
		(p->depth == 0 &&
		 (!last || !strcmp(last, "LOGIN") ||
		  (wild && ncp_has_wild(last)))));
}

uint8_t ncp_path_parse(struct ncp_call *c, uint8_t dh, const uint8_t *text,
		       size_t len, struct ncp_path *out, char *last,
		       bool wild)
{
	const uint8_t *colon = memchr(text, ':', len);
	size_t i = 0;
	uint8_t cc;

	memset(out, 0, sizeof(*out));
	if (len > NCP_PATH_MAX)
		return ncp_refuse(c, NCP_SRV_REF_OVERLONG, NCP_CC_BAD_PATH);
	if (memchr(text, '\0', len))
		return ncp_refuse(c, NCP_SRV_REF_BAD_BYTES, NCP_CC_BAD_PATH);
	cc = path_start(c, dh, text, colon, out, &i);
	if (cc)
		return cc;
	out->dir_form = false;
	while (i < len) {
		size_t j = i, n;
		char comp[NCP_NAME_LEN + 1];
		bool is_last;
		int ref;

		while (j < len && text[j] != '\\' && text[j] != '/')
			j++;
		n = j - i;
		is_last = j >= len;
		if (n == 0 || (n == 1 && text[i] == '.')) {
			out->dir_form = true;
			i = j + 1;
			continue;
		}
		if (n == 2 && text[i] == '.' && text[i + 1] == '.') {
			if (out->depth == 0)
				return ncp_refuse(c, NCP_SRV_REF_ABOVE_ROOT,
						  NCP_CC_BAD_PATH);
			out->depth--;
			out->dir_form = true;
			i = j + 1;
			continue;
		}
		out->dir_form = false;
		if (text[i] == ':' || memchr(text + i, ':', n))
			return ncp_refuse(c, NCP_SRV_REF_NO_VOLUME,
					  NCP_CC_BAD_PATH);
		ref = ncp_name_check((const char *)text + i, n,
				     wild && is_last && last, comp);
		if (ref)
			return name_refusal(c, ref, is_last);
		if (out->depth == NCP_MAX_DEPTH)
			return ncp_refuse(c, NCP_SRV_REF_OVERLONG,
					  NCP_CC_BAD_PATH);
		memcpy(out->comp[out->depth++], comp, sizeof(comp));
		i = j + 1;
	}
	if (len && (text[len - 1] == '\\' || text[len - 1] == '/'))
		out->dir_form = true;
	if (last) {
		if (out->depth == 0)
			last[0] = '\0';
		else
			memcpy(last, out->comp[--out->depth],
			       NCP_NAME_LEN + 1);
	}
	if (!c->conn->logged_in) {
		if (!ncp_login_may_see(out, last, wild))
			return ncp_refuse(c, NCP_SRV_REF_LOGIN_ONLY,
					  NCP_CC_BAD_PATH);
	}
	return NCP_CC_OK;
}

int ncp_lookup(struct ncp_call *c, int dirfd, const char *dosname,
	       char *host, size_t hostcap, struct stat *st)
{
	int fd;
	DIR *d;
	struct dirent *e;
	bool found = false;

	/* Names differing only in case: the byte-wise smallest wins, and
	 * that is the all-upper-case one when it exists (upper case sorts
	 * before lower, other characters have one case), so an exact hit
	 * needs no directory scan. */
	if (strlen(dosname) < hostcap &&
	    fstatat(dirfd, dosname, st, AT_SYMLINK_NOFOLLOW) == 0) {
		strcpy(host, dosname);
		goto check;
	}
	fd = dup(dirfd);
	if (fd < 0)
		return 1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 1;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		if (!ncp_name_visible(e->d_name) ||
		    strcasecmp(e->d_name, dosname) ||
		    (found && strcmp(e->d_name, host) >= 0))
			continue;
		if (strlen(e->d_name) < hostcap) {
			strcpy(host, e->d_name);
			found = true;
		}
	}
	closedir(d);
	if (!found)
		return ncp_lookup_alias(dirfd, dosname, host, hostcap, st) ? 1
		       : ncp_lookup_check(c, st);
	if (fstatat(dirfd, host, st, AT_SYMLINK_NOFOLLOW) < 0)
		return 1;
check:
	return ncp_lookup_check(c, st);
}

int ncp_lookup_check(struct ncp_call *c, const struct stat *st)
{
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) {
		if (c)
			c->srv->stats.refusals[NCP_SRV_REF_SYMLINK]++;
		return -1;
	}
	return 0;
}

int ncp_path_open_dir(struct ncp_call *c, const struct ncp_path *p,
		      uint8_t *cc)
{
	int fd = fcntl(c->srv->vols[p->vol].fd, F_DUPFD_CLOEXEC, 0);

	*cc = NCP_CC_OK;
	if (fd < 0) {
		*cc = NCP_CC_DIR_IO;
		return -1;
	}
	for (int i = 0; i < p->depth; i++) {
		char host[256];
		struct stat st;
		int r = ncp_lookup(c, fd, p->comp[i], host, sizeof(host), &st);
		int next;

		if (r != 0 || !S_ISDIR(st.st_mode)) {
			close(fd);
			*cc = NCP_CC_BAD_PATH;
			return -1;
		}
		next = openat(fd, host,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next < 0) {
			if (errno == ELOOP || errno == ENOTDIR)
				c->srv->stats.refusals[NCP_SRV_REF_SYMLINK]++;
			*cc = NCP_CC_BAD_PATH;
			return -1;
		}
		fd = next;
	}
	return fd;
}

int ncp_list_path(struct ncp_call *c, const struct ncp_path *p, int dirfd,
		  struct ncp_dirent **out, size_t *n)
{
	int rc = ncp_list_dir(dirfd, out, n);
	size_t k = 0;

	if (c->conn->logged_in || p->vol != 0 || p->depth != 0)
		return rc;
	/* The root of SYS before login: LOGIN alone. */
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*out)[i].name, "LOGIN"))
			(*out)[k++] = (*out)[i];
	*n = k;
	return rc;
}

uint8_t ncp_attr_of(const struct stat *st)
{
	uint8_t a = 0;

	if (S_ISDIR(st->st_mode))
		a |= NCP_ATTR_DIRECTORY;
	else if (!(st->st_mode & S_IWUSR))
		a |= NCP_ATTR_READ_ONLY;
	return a;
}

bool ncp_vol_ro(struct ncp_call *c, int vol)
{
	if (!c->srv->vols[vol].ro && c->conn->logged_in)
		return false;
	c->srv->stats.refusals[NCP_SRV_REF_READ_ONLY]++;
	return true;
}

void ncp_path_format(const struct ncp_server *srv, const struct ncp_path *p,
		     char *out, size_t cap)
{
	size_t n = (size_t)snprintf(out, cap, "%s:", srv->vols[p->vol].name);

	for (int i = 0; i < p->depth && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? "\\" : "",
				      p->comp[i]);
}

bool ncp_file_name_ok(struct ncp_call *c, const struct ncp_path *p,
		      const char *last)
{
	if (!last[0] || !p->dir_form)
		return true;
	c->cc = ncp_refuse(c, NCP_SRV_REF_DIR_AS_FILE, NCP_CC_BAD_PATH);
	return false;
}

bool ncp_rd_path(struct ncp_call *c, uint8_t dh, struct ncp_path *out,
		 char *last, bool wild)
{
	uint8_t n = ncp_rd8(&c->rd);
	const uint8_t *t = ncp_rdn(&c->rd, n);

	if (c->rd.bad) {
		ncp_malformed(c);
		return false;
	}
	c->cc = ncp_path_parse(c, dh, t, n, out, last, wild);
	return c->cc == NCP_CC_OK;
}

uint8_t ncp_path_resolve_dir(struct ncp_call *c, uint8_t dh, const uint8_t *t,
			     size_t len, struct ncp_path *out)
{
	uint8_t cc = ncp_path_parse(c, dh, t, len, out, NULL, false);
	int fd;

	if (cc)
		return cc;
	fd = ncp_path_open_dir(c, out, &cc);
	if (fd < 0)
		return cc;
	close(fd);
	return NCP_CC_OK;
}

