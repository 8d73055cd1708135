/*
 * cmd_ncp_get.c - "ipxlab ncp get": one file or a wildcard's files to
 * local files (written under a temporary name, renamed when complete) or
 * stdout, a failed read resumed on a new connection when the server moves.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd_ncp.h"
#include "ipxlab/err.h"

/*
 * Where a get writes: a temporary name beside the final one (".NAME.
 * ipxlab-XXXXXX" in the same directory), renamed to it when the file is
 * complete and removed on a failure or a signal, so a partial file never
 * stands under the final name; "-" is stdout; a local name that is not a
 * regular file (/dev/null, a FIFO) is written as it is.
 */
struct local_out {
	int fd;
	const char *final;
	char tmp[4200];		/* "" when writing the final name itself */
};

static int out_open(struct local_out *o, const char *local)
{
	struct stat st;
	const char *slash = strrchr(local, '/');
	int dl = slash ? (int)(slash + 1 - local) : 0;
	bool exists = stat(local, &st) == 0;
	mode_t um;

	o->final = local;
	o->tmp[0] = '\0';
	if (!strcmp(local, "-")) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		o->fd = open(local, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		return o->fd < 0 ? -1 : 0;
	}
	if (snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.ipxlab-XXXXXX", dl,
		     local, local + dl) >= (int)sizeof(o->tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0)
		return -1;
	um = umask(0);
	umask(um);
	fchmod(o->fd, exists ? st.st_mode & 07777 : 0666 & ~um);
	return 0;
}

/* Close; the final name only if ok. 0, or -1 (errno) if the data could
 * not be kept. */
static int out_finish(struct local_out *o, bool ok)
{
	int rc = o->fd == STDOUT_FILENO ? 0 : close(o->fd);

	if (!o->tmp[0])
		return rc;
	if (ok && rc == 0 && rename(o->tmp, o->final) == 0)
		return 0;
	unlink(o->tmp);
	return -1;
}

static int get_one(struct session *s, const char *remote, const char *local)
{
	struct ncp_fh fh;
	struct local_out out;
	uint8_t *buf = malloc(CHUNK);
	uint32_t off = 0;
	ipx_time t0 = ipx_loop_now(s->cn.loop);
	int rc;

	if (!buf)
		return ncpc_fail("get", remote, IPX_ENOMEM);
	rc = ncp_open(s->cl, remote, NCP_OPEN_READ, &fh);
	if (rc) {
		free(buf);
		return ncpc_fail_path("get", remote, rc);
	}
	if (out_open(&out, local) < 0) {
		fprintf(stderr, "ipxlab ncp: get: cannot write %s: %s\n", local,
			strerror(errno));
		ncp_close(s->cl, &fh);
		free(buf);
		return CLI_FAIL;
	}
	for (;;) {
		size_t got;

		rc = ncp_read(s->cl, &fh, off, buf, CHUNK, &got);
		if (rc && ncpc_recovered(s, &rc) &&
		    !(rc = ncp_open(s->cl, remote, NCP_OPEN_READ, &fh)))
			continue;	/* the same offset again */
		if (rc)
			break;
		if (got && write(out.fd, buf, got) != (ssize_t)got) {
			rc = NCP_E_LOCAL;
			break;
		}
		off += (uint32_t)got;
		ncpc_show_progress(s, remote, off, fh.size, t0, false);
		if (got < CHUNK)
			break;
	}
	if (out_finish(&out, rc == 0) < 0 && !rc)
		rc = NCP_E_LOCAL;
	ncpc_show_progress(s, remote, off, fh.size, t0, true);
	free(buf);
	if (rc) {
		ncpc_close_after(s, &fh, rc);
		fprintf(stderr, "ipxlab ncp: get %s: failed after %lu bytes: "
				"%s\n",
			remote, (unsigned long)off, ncp_strerror(rc));
		return rc == NCP_E_INTERRUPTED ? CLI_INTERRUPTED : CLI_FAIL;
	}
	rc = ncp_close(s->cl, &fh);
	return rc ? ncpc_fail("get: close", remote, rc) : CLI_OK;
}

struct get_all {
	struct session *s;
	const char *dir, *local;
	int rc;
	unsigned n;
};

static int get_each(const struct ncp_entry *e, void *ctx)
{
	struct get_all *g = ctx;
	char remote[400], local[4200];
	int rc;

	if (e->attr & NCP_ATTR_DIRECTORY)
		return 0;
	snprintf(remote, sizeof(remote), "%s%s", g->dir, e->name);
	if (!strcmp(g->local, "-"))	/* one after another, as cat */
		snprintf(local, sizeof(local), "-");
	else
		cli_path_join(local, sizeof(local), g->local, e->name);
	rc = get_one(g->s, remote, local);
	g->n++;
	if (rc == CLI_INTERRUPTED) {	/* no more files after a signal */
		g->rc = CLI_FAIL;
		return 1;
	}
	if (rc != CLI_OK)
		g->rc = CLI_FAIL;
	return 0;
}

int ncpc_get(struct session *s, const char *remote, const char *local)
{
	char dir[300];
	const char *name;
	struct get_all g = { s, dir, local ? local : ".", CLI_OK, 0 };
	int rc;

	ncp_path_split(remote, dir, sizeof(dir), &name);
	if (!*name) {
		cli_error("ncp", "get: '%s' names no file", remote);
		return CLI_USAGE;
	}
	if (!strpbrk(name, "*?")) {
		struct stat st;
		char path[4200];

		if (local && stat(local, &st) == 0 && S_ISDIR(st.st_mode)) {
			cli_path_join(path, sizeof(path), local, name);
			rc = get_one(s, remote, path);
		} else {
			rc = get_one(s, remote, local ? local : name);
		}
		return rc == CLI_INTERRUPTED ? CLI_FAIL : rc;
	}
	rc = ncp_list(s->cl, dir, name, get_each, &g);
	if (rc)
		return ncpc_fail_path("get", remote, rc);
	if (g.n == 0)
		return ncpc_fail_path("get", remote, NCP_CC_FAILURE);
	return g.rc;
}
