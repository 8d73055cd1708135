/*
 * fixtures.c - the files the file-server benchmarks need on the server's
 * SYS volume (bench_ncp.h lists them), written into a host directory
 * before the server starts. Names are upper case, as the server maps
 * DOS names to host names (docs/ncp.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bench_ncp.h"
#include "ipxlab/err.h"

#include "bench_util.h"

/* root/rel with the DOS separators turned into slashes (one slash after
 * a root that ends in one). */
static void host_path(const char *root, const char *rel, char *out,
		      size_t len)
{
	size_t n = strlen(root);

	snprintf(out, len, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/",
		 rel);
	for (char *p = out; *p; p++)
		if (*p == '\\')
			*p = '/';
}

/* A file of 'size' bytes whose byte i is a function of i and 'seed'. */
static int make_file(const char *root, const char *rel, size_t size,
		     unsigned seed, char *err, size_t errlen)
{
	char path[4200];
	uint8_t chunk[8192];
	int fd;

	host_path(root, rel, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		ipx_bench_set_err(err, errlen, "cannot create %s: %s", path,
				  strerror(errno));
		return IPX_EIO;
	}
	for (size_t done = 0; done < size;) {
		size_t n = size - done < sizeof(chunk) ? size - done
						       : sizeof(chunk);

		for (size_t i = 0; i < n; i++)
			chunk[i] = (uint8_t)((done + i) * 31 + seed);
		if (write(fd, chunk, n) != (ssize_t)n) {
			ipx_bench_set_err(err, errlen, "cannot write %s: %s",
					  path, strerror(errno));
			close(fd);
			return IPX_EIO;
		}
		done += n;
	}
	if (close(fd) < 0) {
		ipx_bench_set_err(err, errlen, "cannot write %s: %s", path,
				  strerror(errno));
		return IPX_EIO;
	}
	return IPX_OK;
}

static int make_dir(const char *root, const char *rel, char *err,
		    size_t errlen)
{
	char path[4200];

	host_path(root, rel, path, sizeof(path));
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		ipx_bench_set_err(err, errlen, "cannot create %s: %s", path,
				  strerror(errno));
		return IPX_EIO;
	}
	return IPX_OK;
}

/* Directory 'rel' at depth 'level' (1..4) with its files, and below. */
static int make_level(const char *root, const char *rel, unsigned level,
		      char *err, size_t errlen)
{
	char sub[256];
	int rc = make_dir(root, rel, err, errlen);

	for (unsigned f = 0; rc == IPX_OK && f < IPX_BN_LEVEL_FILES; f++) {
		snprintf(sub, sizeof(sub), "%s\\F%u.DAT", rel, f);
		rc = make_file(root, sub, 512, f + level, err, errlen);
	}
	for (unsigned d = 0; rc == IPX_OK && level < IPX_BN_LEVELS && d < 2;
	     d++) {
		snprintf(sub, sizeof(sub), "%s\\D%u", rel, d);
		rc = make_level(root, sub, level + 1, err, errlen);
	}
	return rc;
}

/*
 * B8's image i: a standard normal z from the sum of 12 uniforms of a
 * xorshift32 sequence seeded by i (minus 6: the Irwin-Hall
 * approximation), then median x e^(z / 2), clipped. A pure function of
 * i: the fixtures and the workload's check agree.
 */
uint32_t ipx_bn_image_size(unsigned i)
{
	uint32_t x = 2654435761u * (i + 1u) ^ 0x9E3779B9u;
	double u = 0, size;

	for (int k = 0; k < 12; k++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		u += (double)x / 4294967296.0;
	}
	size = IPX_BN_IMAGE_MEDIAN * exp((u - 6.0) * 0.5);
	if (size < IPX_BN_IMAGE_MIN)
		size = IPX_BN_IMAGE_MIN;
	if (size > IPX_BN_IMAGE_MAX)
		size = IPX_BN_IMAGE_MAX;
	return (uint32_t)size;
}

unsigned ipx_bn_image_pick(unsigned station, unsigned k, unsigned images)
{
	if (!images)
		return 0;
	return (k + 7u * (station ? station - 1u : 0u)) % images;
}

static int make_images(const char *root, char *err, size_t errlen)
{
	char rel[256];
	int rc = make_dir(root, IPX_BN_IMAGE_DIR, err, errlen);

	for (unsigned i = 0; rc == IPX_OK && i < IPX_BN_IMAGES; i++) {
		ipx_bn_path_image(i, rel, sizeof(rel));
		rc = make_file(root, rel, ipx_bn_image_size(i), i, err, errlen);
	}
	return rc;
}

int ipx_bn_fixtures_make(const char *root, unsigned stations, char *err,
			 size_t errlen)
{
	char rel[256];
	int rc = make_dir(root, IPX_BN_DIR, err, errlen);

	if (rc == IPX_OK)
		rc = make_dir(root, IPX_BN_DIR "\\TMP", err, errlen);
	for (unsigned i = 0; rc == IPX_OK && i < IPX_BN_SINGLE_FILES; i++) {
		snprintf(rel, sizeof(rel), "%s\\F%02u.DAT", IPX_BN_DIR, i);
		rc = make_file(root, rel, 512, i, err, errlen);
	}
	for (unsigned d = 0; rc == IPX_OK && d < 2; d++) {
		snprintf(rel, sizeof(rel), "%s\\D%u", IPX_BN_DIR, d);
		rc = make_level(root, rel, 1, err, errlen);
	}
	if (rc == IPX_OK)
		rc = make_file(root, IPX_BN_SMALL_FILE, IPX_BN_SMALL_SIZE, 1,
			       err, errlen);
	if (rc == IPX_OK)
		rc = make_file(root, IPX_BN_LARGE_FILE, IPX_BN_LARGE_SIZE, 2,
			       err, errlen);
	for (unsigned s = 1; rc == IPX_OK && s <= stations; s++) {
		ipx_bn_path_private(s, rel, sizeof(rel));
		rc = make_file(root, rel, IPX_BN_PRIV_SIZE, s, err, errlen);
	}
	for (unsigned i = 0; rc == IPX_OK && i < IPX_BN_COPY_SIZES; i++) {
		ipx_bn_path_copy(ipx_bn_copy_size[i], rel, sizeof(rel));
		rc = make_file(root, rel, ipx_bn_copy_size[i], i, err, errlen);
	}
	if (rc == IPX_OK)
		rc = make_dir(root, "PUBLIC", err, errlen);
	if (rc == IPX_OK)
		rc = make_file(root, IPX_BN_PROGRAM_FILE, IPX_BN_PROGRAM_SIZE,
			       7, err, errlen);
	if (rc == IPX_OK)
		rc = make_images(root, err, errlen);
	return rc;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

void ipx_bn_fixtures_remove(const char *root)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
