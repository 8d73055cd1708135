/*
 * ns_alias.c - the two name spaces over one host directory: which host
 * names each shows, and the DOS 8.3 alias of a name that is not 8.3.
 *
 * A host name is in the LONG (OS/2) name space when it is 1..255 bytes
 * of no control byte, no 0xFF and none of \ : * ? " < > | (nor "." or
 * ".."). In the DOS name space a valid 8.3 name shows as itself, upper
 * case (of case twins the byte-wise smallest host name); every other
 * name of the LONG name space, the other case twins among them, gets an
 * alias: up to 2 letters of its base, 4 hex digits of an FNV-1a hash of
 * the exact host name and the attempt k, '~', k (1..9), and up to 3
 * letters of its extension ("Quarterly Report 2026.txt" -> "QUD004~1.TXT").
 * Aliases are made in the byte order of the host names; an alias already
 * taken (by a real 8.3 name, or an earlier alias) moves to k + 1. So an
 * alias depends only on its own name unless two hashes collide, and a
 * new file can move an existing alias only by colliding with it
 * (docs/ncp.md).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "srv_int.h"

bool ncp_long_visible(const char *host)
{
	size_t n = strlen(host);

	if (n == 0 || n > NCP_LONG_MAX || !strcmp(host, ".") ||
	    !strcmp(host, ".."))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)host[i];

		if (ch < 0x20 || ch == 0x7F || ch == 0xFF ||
		    strchr("\\/:*?\"<>|", ch))
			return false;
	}
	return true;
}

static bool alias_char(unsigned char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("!#$%&'()-@^_`{}", ch));
}

/* Up to 'max' DOS characters of s[0..n), upper case. */
static size_t take_chars(const char *s, size_t n, char *out, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < max; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch >= 'a' && ch <= 'z')
			ch = (unsigned char)(ch - 32);
		if (alias_char(ch))
			out[k++] = (char)ch;
	}
	out[k] = '\0';
	return k;
}

void ncp_alias_make(const char *host, unsigned k, char *out)
{
	const char *dot = strrchr(host, '.');
	size_t n = strlen(host), bn = dot && dot != host ? (size_t)(dot - host)
							 : n;
	char base[3], ext[4];
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)host[i]) * 16777619u;
	h = (h ^ (uint8_t)k) * 16777619u;
	take_chars(host, bn, base, 2);
	if (bn < n)
		take_chars(dot + 1, n - bn - 1, ext, 3);
	else
		ext[0] = '\0';
	snprintf(out, NCP_NAME_LEN + 1, "%s%04X~%u%s%s", base,
		 (unsigned)((h ^ (h >> 16)) & 0xFFFF), k % 10, ext[0] ? "." : "",
		 ext);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ncp_dirent *)a)->name,
		      ((const struct ncp_dirent *)b)->name);
}

static int by_host(const void *a, const void *b)
{
	return strcmp(((const struct ncp_dirent *)a)->host,
		      ((const struct ncp_dirent *)b)->host);
}

/* The DOS names given so far in a directory: an open-addressing set, so
 * a directory of n names costs O(n), not O(n * n). */
struct nameset {
	char (*slot)[NCP_NAME_LEN + 1];
	size_t cap;
};

static size_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static int set_init(struct nameset *ns, size_t n)
{
	ns->cap = 64;
	while (ns->cap < 2 * n + 2)
		ns->cap *= 2;
	ns->slot = calloc(ns->cap, sizeof(*ns->slot));
	return ns->slot ? 0 : -1;
}

/* Add name: true, or false if it was there already. */
static bool set_add(struct nameset *ns, const char *name)
{
	size_t i = name_hash(name) & (ns->cap - 1);

	while (ns->slot[i][0]) {
		if (!strcmp(ns->slot[i], name))
			return false;
		i = (i + 1) & (ns->cap - 1);
	}
	snprintf(ns->slot[i], sizeof(ns->slot[i]), "%s", name);
	return true;
}

/* Read every regular file and directory of the LONG or DOS name space. */
static int read_entries(int dirfd, struct ncp_dirent **out, size_t *n)
{
	int fd = dup(dirfd);
	DIR *d;
	struct dirent *e;
	struct ncp_dirent *v = NULL;
	size_t cnt = 0, cap = 0;

	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		struct ncp_dirent de;

		memset(&de, 0, sizeof(de));
		if (strlen(e->d_name) >= sizeof(de.host) ||
		    (!ncp_name_visible(e->d_name) &&
		     !ncp_long_visible(e->d_name)) ||
		    fstatat(dirfd, e->d_name, &de.st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (!S_ISREG(de.st.st_mode) && !S_ISDIR(de.st.st_mode)))
			continue;
		snprintf(de.host, sizeof(de.host), "%s", e->d_name);
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 32;
			struct ncp_dirent *nv = realloc(v, nc * sizeof(*v));

			if (!nv) {
				free(v);
				closedir(d);
				return -1;
			}
			v = nv;
			cap = nc;
		}
		v[cnt++] = de;
	}
	closedir(d);
	*out = v;
	*n = cnt;
	return 0;
}

int ncp_list_dir(int dirfd, struct ncp_dirent **out, size_t *n)
{
	struct ncp_dirent *v;
	struct nameset set;
	size_t cnt;

	*out = NULL;
	*n = 0;
	if (read_entries(dirfd, &v, &cnt) < 0)
		return -1;
	if (cnt)
		qsort(v, cnt, sizeof(*v), by_host);
	if (set_init(&set, cnt) < 0) {
		free(v);
		return -1;
	}
	/* Real 8.3 names first: in host order the smallest of case twins
	 * comes first and keeps the name. */
	for (size_t i = 0; i < cnt; i++) {
		char up[NCP_NAME_LEN + 1];

		if (!ncp_name_visible(v[i].host))
			continue;
		ncp_name_check(v[i].host, strlen(v[i].host), false, up);
		if (set_add(&set, up))
			memcpy(v[i].name, up, sizeof(up));
	}
	for (size_t i = 0; i < cnt; i++) {
		if (v[i].name[0] || !ncp_long_visible(v[i].host))
			continue;
		for (unsigned k = 1; k <= 9; k++) {
			char a[NCP_NAME_LEN + 1];

			ncp_alias_make(v[i].host, k, a);
			if (set_add(&set, a)) {
				memcpy(v[i].name, a, sizeof(a));
				v[i].alias = true;
				break;
			}
		}
	}
	free(set.slot);
	/* What got no name (nine collisions) is left out. */
	size_t k = 0;
	for (size_t i = 0; i < cnt; i++)
		if (v[i].name[0])
			v[k++] = v[i];
	if (k)
		qsort(v, k, sizeof(*v), by_name);
	*out = v;
	*n = k;
	return 0;
}

int ncp_lookup_long(struct ncp_call *c, int dirfd, const char *name,
		    struct ncp_dirent *out)
{
	struct ncp_dirent *v;
	size_t n;
	long best = -1;

	if (!ncp_long_visible(name) || ncp_list_dir(dirfd, &v, &n) < 0)
		return 1;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v[i].host, name)) {
			best = (long)i;
			break;
		}
		if (!strcasecmp(v[i].host, name) &&
		    (best < 0 || strcmp(v[i].host, v[best].host) < 0))
			best = (long)i;
	}
	if (best >= 0)
		*out = v[best];
	free(v);
	if (best < 0) {
		/* A link or special file of that name: refused, counted. */
		struct stat st;

		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return ncp_lookup_check(c, &st) ? -1 : 1;
		return 1;
	}
	return 0;
}

int ncp_lookup_alias(int dirfd, const char *dosname, char *host,
		     size_t hostcap, struct stat *st)
{
	struct ncp_dirent *v;
	size_t n;
	int r = 1;

	if (!strchr(dosname, '~') || ncp_list_dir(dirfd, &v, &n) < 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (v[i].alias && !strcmp(v[i].name, dosname) &&
		    strlen(v[i].host) < hostcap) {
			strcpy(host, v[i].host);
			*st = v[i].st;
			r = 0;
			break;
		}
	free(v);
	return r;
}

int ncp_dos_name_of(int dirfd, const char *host, char *out)
{
	struct ncp_dirent *v;
	size_t n;
	int r = 1;

	if (ncp_list_dir(dirfd, &v, &n) < 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].host, host)) {
			memcpy(out, v[i].name, NCP_NAME_LEN + 1);
			r = 0;
			break;
		}
	free(v);
	return r;
}
