/*
 * names.c - the server's name for a path of a mount (ipx_mount_name):
 * the one place that maps names. In the DOS name space (a server without
 * the LONG one, or --dos-names) a name that is not 8.3 is refused with
 * ENAMETOOLONG or EINVAL, never truncated; with the LONG name space (NCP
 * 0x57, chosen at connect) names pass through as they are
 * (ipx_mount_name_long).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "ipxlab/mount.h"

/* Characters a DOS name cannot hold (besides controls and space). */
static const char bad_chars[] = "*?/\\:<>|+=;,[]\"";

/* One name of n bytes at p: 0, -ENAMETOOLONG or -EINVAL. */
static int check_name(const char *p, size_t n)
{
	size_t base = 0, ext = 0;
	bool dot = false;

	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (ch == '.') {
			if (dot || i == 0)
				return -EINVAL;
			dot = true;
			continue;
		}
		if (ch <= ' ' || ch >= 0x7F || strchr(bad_chars, ch))
			return -EINVAL;
		if (dot)
			ext++;
		else
			base++;
	}
	if (dot && ext == 0)
		return -EINVAL;
	if (base > 8 || ext > 3)
		return -ENAMETOOLONG;
	return 0;
}

int ipx_mount_name(const char *volume, const char *path, char *out,
		   size_t cap)
{
	size_t vl = strcspn(volume, ":"), o;
	const char *p = path;

	if (vl == 0 || vl + 2 > cap)
		return -ENAMETOOLONG;
	for (o = 0; o < vl; o++)
		out[o] = (char)toupper((unsigned char)volume[o]);
	out[o++] = ':';
	while (*p == '/')
		p++;
	while (*p) {
		size_t n = strcspn(p, "/");
		int rc = check_name(p, n);

		if (rc)
			return rc;
		/* The server's paths are at most 255 bytes (a length byte). */
		if (o + n + 2 > cap || o + n + 1 > 255)
			return -ENAMETOOLONG;
		if (out[o - 1] != ':')
			out[o++] = '\\';
		for (size_t i = 0; i < n; i++)
			out[o++] = (char)toupper((unsigned char)p[i]);
		p += n;
		while (*p == '/')
			p++;
	}
	out[o] = '\0';
	return 0;
}

int ipx_mount_name_long(const char *volume, const char *path, char *out,
			size_t cap)
{
	size_t vl = strcspn(volume, ":"), o;
	const char *p = path;

	if (vl == 0 || vl + 2 > cap)
		return -ENAMETOOLONG;
	for (o = 0; o < vl; o++)
		out[o] = (char)toupper((unsigned char)volume[o]);
	out[o++] = ':';
	while (*p == '/')
		p++;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n > 255)
			return -ENAMETOOLONG;
		for (size_t i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)p[i];

			if (ch < 0x20 || ch == 0x7F || ch == 0xFF ||
			    strchr("\\:*?\"<>|", ch))
				return -EINVAL;
		}
		if (o + n + 2 > cap)
			return -ENAMETOOLONG;
		if (out[o - 1] != ':')
			out[o++] = '\\';
		memcpy(out + o, p, n);
		o += n;
		p += n;
		while (*p == '/')
			p++;
	}
	out[o] = '\0';
	return 0;
}
