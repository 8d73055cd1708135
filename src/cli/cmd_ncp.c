/*
 * cmd_ncp.c - "ipxlab ncp": a NetWare client for people, in the manner of
 * smbclient and the NetWare utilities: find a file server (by name or the
 * nearest), log in, then one command: ls, get, put, rm, mkdir, rmdir, mv,
 * stat, info, whoami (docs/ncp.md). Remote paths are VOL:DIR\NAME or
 * relative to SYS:, '/' or '\' between names; ls, get and rm take DOS
 * wildcards (* and ?) in the last name.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"

#define CHUNK (64 * 1024)
#define PROGRESS_MIN (256 * 1024)
/* get_one's own return beside CLI_OK/CLI_FAIL: a signal ended it. */
#define CLI_INTERRUPTED 100

void help_ncp(FILE *out)
{
	fprintf(out,
		"Talk to a NetWare file server over NCP. Commands:\n"
		"  ls [PATH]           list a directory (or PATH with wildcards):\n"
		"                      name, size, date, time\n"
		"  get REMOTE [LOCAL]  copy a file here (wildcards: every match,\n"
		"                      into LOCAL as a directory, default .;\n"
		"                      - is stdout)\n"
		"  put LOCAL [REMOTE]  copy a file there (default: its name in SYS:;\n"
		"                      REMOTE a directory: into it; - is stdin)\n"
		"  rm PATH             erase files (wildcards allowed)\n"
		"  mkdir PATH, rmdir PATH, mv FROM TO, stat PATH\n"
		"  info                the server's name, version, connections\n"
		"  whoami              the user and station of this connection\n"
		"Paths: VOL:DIR\\NAME, or relative to SYS:; options go anywhere\n"
		"(after -- a path may start with -); names are DOS 8.3. Exit 0\n"
		"success, 1 a failure (named, with the server's completion\n"
		"code) or Ctrl-C, 2 bad usage. Large transfers show progress on\n"
		"a terminal; a silent server is said after 2 s and looked for\n"
		"again by name (a get or put then goes on).\n\n"
		"  -s, --server NAME   the server (default: the nearest that\n"
		"                      answers SAP: nearest-server and general\n"
		"                      queries in turn, every 0.5 s)\n"
		"  -u, --user NAME     log in as NAME (default GUEST)\n"
		"  -p, --password PW   its password (default: $IPXLAB_NCP_PASSWORD,\n"
		"                      else asked on a terminal, else none)\n"
		"  --no-login          stay logged out (only SYS:LOGIN is visible)\n"
		"  --bufsize N         buffer size to ask for (512-4096, default\n"
		"                      4096: the server answers what fits a packet)\n"
		"  --find-timeout SECONDS\n"
		"                      how long to look for the server (default 3)\n"
		CLI_NODE_OPTS_HELP);
}

enum { OPT_NOLOGIN = OPT_FIRST_CMD, OPT_BUFSIZE, OPT_FINDTO };

struct session {
	struct cli_node cn;
	struct ipx_sap *sap;
	struct ncp_client *cl;
	bool progress;
	char found[48];		/* the server's name */
	/* To connect again (recovered()). */
	const char *user, *pass;
	bool login;
	uint16_t bufsize;
	/* While the server is silent: SAP queries for its name every
	 * second; an answer from another address cancels the wait. */
	struct ipx_timer refind;
	bool moved;
	struct ipx_addr moved_to;
	unsigned reconnects;
};

static int fail(const char *what, const char *arg, int err)
{
	fprintf(stderr, "ipxlab ncp: %s%s%s: %s\n", what, arg ? " " : "",
		arg ? arg : "", ncp_strerror(err));
	return CLI_FAIL;
}

/*
 * A failure on a path, in words where the completion code says little:
 * 0xFF is "failure / no such file / no more entries", 0x9C a path with a
 * directory that is not there. The code's name follows in brackets.
 */
static int fail_path(const char *what, const char *path, int err)
{
	const char *says = err == NCP_CC_FAILURE || err == NCP_CC_BAD_PATH
				   ? "not found"
			   : err == NCP_CC_NAME_EXISTS ? "exists"
						       : NULL;

	if (!says)
		return fail(what, path, err);
	fprintf(stderr, "ipxlab ncp: %s %s: %s (the server answered %s)\n",
		what, path, says, ncp_cc_id((uint8_t)err));
	return CLI_FAIL;
}

static void refind_stop(struct session *s)
{
	ipx_timer_stop(s->cn.loop, &s->refind);
	ipx_sap_on_response(s->sap, NULL, NULL);
}

/* The server of our name answering SAP from another address than the
 * connection's: it was restarted there (a tunnel client's node is its UDP
 * port), and the call waiting on the old address is cancelled. */
static void on_refind_sap(const struct ipx_header *hdr,
			  const struct ipx_sap_msg *m, void *ctx)
{
	struct session *s = ctx;

	for (size_t i = 0; i < m->count; i++) {
		struct ipx_sap_entry e = m->entries[i];

		if (e.type != IPX_SAP_FILE_SERVER || e.hops >= IPX_SAP_DOWN ||
		    strcasecmp(e.name, s->found) != 0)
			continue;
		if (e.addr.net == 0)
			e.addr.net = hdr->src.net;
		if (ipx_addr_eq(&e.addr, ncp_server_addr(s->cl)))
			continue;
		s->moved = true;
		s->moved_to = e.addr;
		refind_stop(s);
		ncp_client_cancel(s->cl);
		return;
	}
}

static void on_refind_timer(struct ipx_loop *loop, struct ipx_timer *t,
			    void *ctx)
{
	struct session *s = ctx;

	(void)loop;
	(void)t;
	ipx_sap_on_response(s->sap, on_refind_sap, s);
	ipx_sap_query(s->sap, IPX_SAP_GENERAL_QUERY, IPX_SAP_FILE_SERVER);
}

/*
 * After a get's read or a put's write failed: if the server was found
 * again (at another address, or at the same one, which then no longer
 * knows our connection), a new connection and login, as a NetWare shell
 * that reattaches. The caller opens its file again and goes on from the
 * last byte acknowledged: reads are repeatable, and every write the old
 * server acknowledged is on its disk (docs/ncp.md, Durability). True when
 * connected again (*rc 0); else *rc is the error to report.
 */
static bool recovered(struct session *s, int *rc)
{
	struct ipx_addr to;
	char as[IPX_ADDR_STRLEN];

	if (*rc == NCP_E_CANCELLED && s->moved)
		to = s->moved_to;
	else if (*rc == (NCP_E_STATUS | NCP_STATUS_BAD_CONN))
		to = *ncp_server_addr(s->cl);
	else
		return false;
	s->moved = false;
	refind_stop(s);
	if (s->reconnects++ >= 3)
		return false;
	if (s->progress)
		fputc('\n', stderr);
	fprintf(stderr, "ipxlab ncp: server %s found again at %s: connecting "
			"again\n",
		s->found, ipx_addr_format(&to, as));
	*rc = ncp_connect(s->cl, &to);
	if (!*rc && s->login)
		*rc = ncp_login(s->cl, s->user, s->pass);
	if (!*rc)
		*rc = ncp_negotiate(s->cl, s->bufsize);
	return *rc == 0;
}

/* The client's word that the server is silent, then back (NetWare
 * shells: "Error receiving from network" while they retried); while it
 * is silent, it is looked for again by name. */
static void on_stall(void *ctx, bool answering)
{
	struct session *s = ctx;

	if (answering)
		refind_stop(s);
	else if (s->found[0])
		ipx_timer_start(s->cn.loop, &s->refind, 0, IPX_SEC);

	if (s->progress)
		fputc('\n', stderr);	/* off the progress line */
	if (answering)
		fprintf(stderr, "ipxlab ncp: server %s answering again\n",
			s->found);
	else
		fprintf(stderr, "ipxlab ncp: server %s not responding, still "
				"trying\n",
			s->found);
}

/* Close after a failure only if the server is still answering: after a
 * time-out the close would wait out the whole back-off again. */
static void close_after(struct session *s, const struct ncp_fh *fh, int rc)
{
	if (rc > 0 && rc < 0x100)
		ncp_close(s->cl, fh);
}

static void show_progress(struct session *s, const char *name, uint64_t done,
			  uint64_t total, ipx_time t0, bool last)
{
	double dt = (double)(ipx_loop_now(s->cn.loop) - t0) / IPX_SEC;

	if (!s->progress || total < PROGRESS_MIN)
		return;
	fprintf(stderr, "\r  %s  %llu/%llu kB  %.0f kB/s%s", name,
		(unsigned long long)(done / 1000),
		(unsigned long long)(total / 1000),
		dt > 0 ? (double)done / 1000 / dt : 0.0, last ? "\n" : "");
}

/* The last name of a remote path. */
static const char *base_name(const char *p)
{
	const char *b = p;

	for (; *p; p++)
		if (*p == '\\' || *p == '/' || *p == ':')
			b = p + 1;
	return b;
}

/* Split at the last separator: dir keeps the separator (or "VOL:"). */
static void split(const char *path, char *dir, size_t cap, const char **name)
{
	size_t n;

	*name = base_name(path);
	n = (size_t)(*name - path);
	if (n >= cap)
		n = cap - 1;
	memcpy(dir, path, n);
	dir[n] = '\0';
}

static int print_entry(const struct ncp_entry *e, void *ctx)
{
	(void)ctx;
	if (e->attr & NCP_ATTR_DIRECTORY)
		printf("%-12s  %10s", e->name, "<DIR>");
	else
		printf("%-12s  %10lu", e->name, (unsigned long)e->size);
	printf("  %04u-%02u-%02u %02u:%02u%s\n", 1980 + (e->date >> 9),
	       (e->date >> 5) & 15, e->date & 31, e->time >> 11,
	       (e->time >> 5) & 63,
	       e->attr & NCP_ATTR_READ_ONLY ? "  read-only" : "");
	return 0;
}

static int do_ls(struct session *s, const char *path)
{
	char dir[300];
	const char *name;
	int rc;

	if (!path)
		path = "SYS:";
	split(path, dir, sizeof(dir), &name);
	if (*name && !strpbrk(name, "*?")) {
		struct ncp_entry e;

		/* A directory: its contents; else the one file. */
		rc = ncp_list(s->cl, path, NULL, print_entry, NULL);
		if (rc == NCP_CC_BAD_PATH) {
			int st = ncp_stat(s->cl, path, &e);

			if (st == 0 && !(e.attr & NCP_ATTR_DIRECTORY)) {
				print_entry(&e, NULL);
				return CLI_OK;
			}
			if (st == NCP_CC_FAILURE || st == NCP_CC_BAD_PATH)
				rc = st;	/* neither: not there */
		}
	} else {
		rc = ncp_list(s->cl, dir, *name ? name : NULL, print_entry,
			      NULL);
	}
	return rc ? fail_path("ls", path, rc) : CLI_OK;
}

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
		return fail("get", remote, IPX_ENOMEM);
	rc = ncp_open(s->cl, remote, NCP_OPEN_READ, &fh);
	if (rc) {
		free(buf);
		return fail_path("get", remote, rc);
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
		if (rc && recovered(s, &rc) &&
		    !(rc = ncp_open(s->cl, remote, NCP_OPEN_READ, &fh)))
			continue;	/* the same offset again */
		if (rc)
			break;
		if (got && write(out.fd, buf, got) != (ssize_t)got) {
			rc = NCP_E_LOCAL;
			break;
		}
		off += (uint32_t)got;
		show_progress(s, remote, off, fh.size, t0, false);
		if (got < CHUNK)
			break;
	}
	if (out_finish(&out, rc == 0) < 0 && !rc)
		rc = NCP_E_LOCAL;
	show_progress(s, remote, off, fh.size, t0, true);
	free(buf);
	if (rc) {
		close_after(s, &fh, rc);
		fprintf(stderr, "ipxlab ncp: get %s: failed after %lu bytes: "
				"%s\n",
			remote, (unsigned long)off, ncp_strerror(rc));
		return rc == NCP_E_INTERRUPTED ? CLI_INTERRUPTED : CLI_FAIL;
	}
	rc = ncp_close(s->cl, &fh);
	return rc ? fail("get: close", remote, rc) : CLI_OK;
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

static int do_get(struct session *s, const char *remote, const char *local)
{
	char dir[300];
	const char *name;
	struct get_all g = { s, dir, local ? local : ".", CLI_OK, 0 };
	int rc;

	split(remote, dir, sizeof(dir), &name);
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
		return fail_path("get", remote, rc);
	if (g.n == 0)
		return fail_path("get", remote, NCP_CC_FAILURE);
	return g.rc;
}

/* Is the remote path an existing directory? */
static bool remote_is_dir(struct session *s, const char *remote)
{
	struct ncp_entry e;

	return ncp_stat(s->cl, remote, &e) == 0 &&
	       (e.attr & NCP_ATTR_DIRECTORY);
}

/*
 * What stdin has (at most cap), waiting in slices with the loop run
 * between them: a signal stops a put from a terminal or a silent pipe
 * (it is read by the loop, not by a blocked read()). Bytes, 0 at the end,
 * -1 on an error, -2 on a signal.
 */
static ssize_t read_stdin(struct session *s, uint8_t *buf, size_t cap)
{
	for (;;) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int n = poll(&p, 1, 50);

		if (n > 0) {
			ssize_t r = read(STDIN_FILENO, buf, cap);

			if (r >= 0 || (errno != EINTR && errno != EAGAIN))
				return r;
		} else if (n < 0 && errno != EINTR) {
			return -1;
		}
		ipx_loop_run_once(s->cn.loop, 0);
		if (ipx_loop_stopped(s->cn.loop))
			return -2;
	}
}

static int do_put(struct session *s, const char *local, const char *remote)
{
	const char *lb = strrchr(local, '/');
	bool from_stdin = !strcmp(local, "-");
	char target[300];
	uint8_t *buf;
	struct ncp_fh fh;
	struct stat st = { 0 };
	uint32_t off = 0;
	ipx_time t0 = ipx_loop_now(s->cn.loop);
	int fd = STDIN_FILENO, rc = 0;

	if (from_stdin) {
		if (!remote || !*base_name(remote) || remote_is_dir(s, remote)) {
			cli_error("ncp", "put -: stdin needs a remote file "
					 "name (put - SYS:DIR\\NAME)");
			return CLI_USAGE;
		}
	} else {
		fd = open(local, O_RDONLY);
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "ipxlab ncp: put: cannot read %s: %s\n",
				local,
				fd < 0 ? strerror(errno) : "not a regular file");
			if (fd >= 0)
				close(fd);
			return CLI_FAIL;
		}
		if (st.st_size > 0xFFFFFFFFll) {
			fprintf(stderr, "ipxlab ncp: put: %s is larger than "
					"NCP's 4 GB\n",
				local);
			close(fd);
			return CLI_FAIL;
		}
	}
	if (!remote) {
		remote = lb ? lb + 1 : local;
	} else if (!from_stdin &&
		   (!*base_name(remote) || remote_is_dir(s, remote))) {
		/* a directory: the file keeps its name in it, as cp */
		snprintf(target, sizeof(target), "%s%s%s", remote,
			 *base_name(remote) ? "\\" : "", lb ? lb + 1 : local);
		remote = target;
	}
	if (ncp_check_path(remote)) {
		if (!from_stdin)
			close(fd);
		return fail("put", remote, NCP_E_NOT83);
	}
	buf = malloc(CHUNK);
	if (!buf) {
		close(fd);
		return fail("put", remote, IPX_ENOMEM);
	}
	rc = ncp_open(s->cl, remote, NCP_OPEN_CREATE_DENY_WRITE, &fh);
	if (rc) {
		free(buf);
		if (!from_stdin)
			close(fd);
		if (rc == NCP_CC_LOCK_FAIL) {
			fprintf(stderr, "ipxlab ncp: put %s: refused, another "
					"connection has it open for writing "
					"(0x80 file in use); the file was not "
					"changed\n", remote);
			return CLI_FAIL;
		}
		return fail("put", remote, rc);
	}
	for (;;) {
		ssize_t n = from_stdin ? read_stdin(s, buf, CHUNK)
				       : read(fd, buf, CHUNK);

		if (n < 0) {
			rc = n == -2 ? NCP_E_INTERRUPTED : NCP_E_LOCAL;
			break;
		}
		if (n == 0)
			break;
		for (;;) {
			rc = ncp_write(s->cl, &fh, off, buf, (size_t)n);
			if (rc && recovered(s, &rc) &&
			    !(rc = ncp_open(s->cl, remote, NCP_OPEN_WRITE, &fh)))
				continue;	/* this chunk again */
			break;
		}
		if (rc)
			break;
		off += (uint32_t)n;
		show_progress(s, remote, off, (uint64_t)st.st_size, t0, false);
	}
	if (!from_stdin)
		close(fd);
	free(buf);
	show_progress(s, remote, off, (uint64_t)st.st_size, t0, true);
	if (!rc)
		rc = ncp_commit(s->cl, &fh);	/* on the server's disk */
	if (rc) {
		fprintf(stderr, "ipxlab ncp: put %s: failed after %lu bytes "
				"acknowledged: %s\n",
			remote, (unsigned long)off, ncp_strerror(rc));
		close_after(s, &fh, rc);
		return CLI_FAIL;
	}
	rc = ncp_close(s->cl, &fh);
	return rc ? fail("put: close", remote, rc) : CLI_OK;
}

static int do_stat(struct session *s, const char *path)
{
	struct ncp_entry e;
	int rc = ncp_stat(s->cl, path, &e);

	if (rc)
		return fail_path("stat", path, rc);
	printf("name %s\ntype %s\nsize %lu\nattributes %02X%s\n"
	       "modified %04u-%02u-%02u %02u:%02u:%02u\n",
	       e.name, e.attr & NCP_ATTR_DIRECTORY ? "directory" : "file",
	       (unsigned long)e.size, e.attr,
	       e.attr & NCP_ATTR_READ_ONLY ? " (read-only)" : "",
	       1980 + (e.date >> 9), (e.date >> 5) & 15, e.date & 31,
	       e.time >> 11, (e.time >> 5) & 63, (e.time & 31) * 2);
	return CLI_OK;
}

/* The number of arguments each command takes, checked before we join. */
static int check_args(int argc, char **argv)
{
	const char *c = argv[0];
	int want = !strcmp(c, "ls") ? -1
		   : !strcmp(c, "info") || !strcmp(c, "whoami") ? 0
		   : !strcmp(c, "mv") ? 2
		   : !strcmp(c, "get") || !strcmp(c, "put") ? -2
							     : 1;

	if ((want >= 0 && argc - 1 != want) || (want == -1 && argc > 2) ||
	    (want == -2 && (argc < 2 || argc > 3))) {
		cli_error("ncp", "%s: wrong number of arguments (see "
				 "'ipxlab ncp --help')", c);
		return CLI_USAGE;
	}
	return CLI_OK;
}

static int run_command(struct session *s, int argc, char **argv)
{
	const char *c = argv[0];
	int rc;

	if (!strcmp(c, "ls"))
		return do_ls(s, argc > 1 ? argv[1] : NULL);
	if (!strcmp(c, "get"))
		return do_get(s, argv[1], argc > 2 ? argv[2] : NULL);
	if (!strcmp(c, "put"))
		return do_put(s, argv[1], argc > 2 ? argv[2] : NULL);
	if (!strcmp(c, "rm"))
		rc = ncp_erase(s->cl, argv[1]);
	else if (!strcmp(c, "mkdir")) {
		struct ncp_entry e;

		rc = ncp_mkdir(s->cl, argv[1]);
		/* NetWare answers 0xFF for a name that is there */
		if (rc == NCP_CC_FAILURE && ncp_stat(s->cl, argv[1], &e) == 0) {
			fprintf(stderr, "ipxlab ncp: mkdir %s: exists (%s)\n",
				argv[1], e.attr & NCP_ATTR_DIRECTORY
						 ? "a directory"
						 : "a file");
			return CLI_FAIL;
		}
	} else if (!strcmp(c, "rmdir"))
		rc = ncp_rmdir(s->cl, argv[1]);
	else if (!strcmp(c, "mv"))
		rc = ncp_rename(s->cl, argv[1], argv[2]);
	else if (!strcmp(c, "stat"))
		return do_stat(s, argv[1]);
	else if (!strcmp(c, "info")) {
		struct ncp_server_info si;

		rc = ncp_get_server_info(s->cl, &si);
		if (!rc)
			printf("server %s\nversion %u.%02u\nconnections %u of "
			       "%u (peak %u)\nvolumes %u\nbuffer %u\n",
			       si.name, si.major, si.minor, si.conns,
			       si.max_conns, si.peak, si.volumes,
			       ncp_bufsize(s->cl));
	} else if (!strcmp(c, "whoami")) {
		char user[64];
		uint8_t st;

		rc = ncp_whoami(s->cl, user, sizeof(user), &st);
		if (!rc)
			printf("user %s\nconnection %u\n",
			       user[0] ? user : "(not logged in)", st);
	} else {
		cli_error("ncp", "unknown command '%s' (ls, get, put, rm, "
				 "mkdir, rmdir, mv, stat, info, whoami)", c);
		return CLI_USAGE;
	}
	if (rc && argc > 1 && (!strcmp(c, "rm") || !strcmp(c, "rmdir") ||
			       !strcmp(c, "mkdir") || !strcmp(c, "mv")))
		return fail_path(c, rc == NCP_CC_NAME_EXISTS ? argv[2] : argv[1],
				 rc);
	return rc ? fail(c, argc > 1 ? argv[1] : NULL, rc) : CLI_OK;
}

/* The remote paths of a command, each an 8.3 name or refused before we
 * join: a server says BAD_PATH or BAD_NAME, not why. */
static int check_names(int argc, char **argv)
{
	const char *c = argv[0];

	for (int i = 1; i < argc; i++) {
		bool remote = strcmp(c, "get") ? strcmp(c, "put") || i == 2
					       : i == 1;

		if (remote && ncp_check_path(argv[i]))
			return fail(c, argv[i], NCP_E_NOT83);
	}
	return CLI_OK;
}

/* -u without -p, stdin a terminal: ask, without echo (as LOGIN did). NULL
 * if stdin is no terminal (a script: no password, as before) or the
 * answer cannot be read. */
static struct termios tty_saved;
static int tty_fd = -1;

static void tty_restore(int sig)
{
	if (tty_fd >= 0)
		tcsetattr(tty_fd, TCSAFLUSH, &tty_saved);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static const char *ask_password(const char *user, char *buf, size_t cap)
{
	struct termios t;
	void (*old_int)(int), (*old_term)(int);
	int fd = STDIN_FILENO;
	size_t n = 0;
	bool ok = false;

	if (!isatty(fd) || tcgetattr(fd, &tty_saved) < 0)
		return NULL;
	fprintf(stderr, "Password for %s: ", user);
	fflush(stderr);
	t = tty_saved;
	t.c_lflag &= ~(tcflag_t)ECHO;
	t.c_lflag |= ICANON;
	tty_fd = fd;
	old_int = signal(SIGINT, tty_restore);
	old_term = signal(SIGTERM, tty_restore);
	tcsetattr(fd, TCSAFLUSH, &t);
	for (;;) {
		char ch;
		ssize_t r = read(fd, &ch, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (ch == '\n' || ch == '\r') {
			ok = true;
			break;
		}
		if (n + 1 < cap)
			buf[n++] = ch;
	}
	buf[n] = '\0';
	tty_restore(0);
	tty_fd = -1;
	signal(SIGINT, old_int);
	signal(SIGTERM, old_term);
	fputc('\n', stderr);
	return ok ? buf : NULL;
}

static const char *const commands[] = { "ls", "get", "put", "rm", "mkdir",
					"rmdir", "mv", "stat", "info",
					"whoami", NULL };

int cmd_ncp(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_NODE_LONGOPTS,
		{ "server", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "password", required_argument, NULL, 'p' },
		{ "no-login", no_argument, NULL, OPT_NOLOGIN },
		{ "bufsize", required_argument, NULL, OPT_BUFSIZE },
		{ "find-timeout", required_argument, NULL, OPT_FINDTO },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_node_opts no;
	struct session s;
	const char *server = NULL, *user = "GUEST";
	const char *pass = getenv("IPXLAB_NCP_PASSWORD");
	bool login = true, known = false, user_given = false;
	char pwbuf[128];
	struct ncp_client_opts co = { .retries = -1, .on_stall = on_stall,
				      .stall_ctx = &s };
	unsigned long bufsize = 4096;
	double findto = 3;
	struct ipx_addr addr;
	char found[48], as[IPX_ADDR_STRLEN];
	int opt, rc;

	memset(&s, 0, sizeof(s));
	cli_node_opts_init(&no);
	optind = 1;
	/* Options anywhere, as in the other commands; after `--` a path may
	 * start with '-'. */
	while ((opt = getopt_long(argc, argv, "s:u:p:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
			server = optarg;
			break;
		case 'u':
			user = optarg;
			user_given = true;
			break;
		case 'p':
			pass = optarg;
			break;
		case OPT_NOLOGIN:
			login = false;
			break;
		case OPT_BUFSIZE:
			if (cli_parse_uint("ncp", "--bufsize", optarg, 512, 4096,
					   &bufsize) < 0)
				return CLI_USAGE;
			break;
		case OPT_FINDTO:
			if (cli_parse_seconds("ncp", "--find-timeout", optarg,
					      0.1, 600, &findto) < 0)
				return CLI_USAGE;
			break;
		case 'h':
			cli_usage_line(stdout, "ncp");
			help_ncp(stdout);
			return CLI_OK;
		default:
			rc = cli_node_opt(&no, "ncp", opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (rc == 0) {
				return cli_bad_option("ncp", argv, "s:u:p:vqh",
						      longopts);
			}
		}
	}
	if (optind >= argc) {
		cli_error("ncp", "needs a command: ls, get, put, rm, mkdir, "
				 "rmdir, mv, stat, info, whoami");
		return CLI_USAGE;
	}
	for (const char *const *c = commands; *c; c++)
		known |= !strcmp(*c, argv[optind]);
	if (!known) {
		cli_error("ncp", "unknown command '%s' (ls, get, put, rm, "
				 "mkdir, rmdir, mv, stat, info, whoami)",
			  argv[optind]);
		return CLI_USAGE;
	}
	if (check_args(argc - optind, argv + optind) != CLI_OK)
		return CLI_USAGE;
	if (check_names(argc - optind, argv + optind) != CLI_OK)
		return CLI_FAIL;
	/* No terminal (a script): no password, as before. */
	if (login && user_given && !pass)
		pass = ask_password(user, pwbuf, sizeof(pwbuf));
	if (strlen(user) == 0 || strlen(user) > 47 ||
	    (pass && strlen(pass) > 127)) {
		cli_error("ncp", "--user must be 1 to 47 characters and "
				 "--password at most 127");
		return CLI_USAGE;
	}
	rc = cli_node_open(&s.cn, &no);
	if (rc != CLI_OK)
		return rc;
	s.progress = isatty(STDERR_FILENO);
	s.user = user;
	s.pass = pass ? pass : "";
	s.login = login;
	s.bufsize = (uint16_t)bufsize;
	ipx_timer_init(&s.refind, on_refind_timer, &s);
	rc = ipx_sap_new(s.cn.node, NULL, &s.sap);
	if (rc == IPX_OK)
		rc = ncp_client_new(s.cn.node, &co, &s.cl);
	if (rc != IPX_OK) {
		cli_error("ncp", "cannot start: %s", ipx_strerror(rc));
		rc = CLI_FAIL;
		goto out;
	}
	rc = ncp_find_server(s.cl, s.sap, server,
			     (ipx_time)(findto * IPX_SEC), &addr, found);
	snprintf(s.found, sizeof(s.found), "%s", found);
	if (rc) {
		if (rc == NCP_E_NOSERVER) {
			fprintf(stderr, "ipxlab ncp: no file server %s%sanswered "
					"within %.1f s\n",
				server ? server : "", server ? " " : "", findto);
			cli_frame_hint("ncp", s.cn.link, findto);
		} else {
			fail("finding the server", NULL, rc);
		}
		rc = CLI_FAIL;
		goto out;
	}
	if (ipx_log_get_level() >= IPX_LOG_DEBUG)
		fprintf(stderr, "ncp: server %s at %s\n", found,
			ipx_addr_format(&addr, as));
	rc = ncp_connect(s.cl, &addr);
	if (rc) {
		rc = fail("connecting to", found, rc);
		goto out;
	}
	if (login && (rc = ncp_login(s.cl, user, pass ? pass : ""))) {
		rc = fail("login as", user, rc);
		goto out;
	}
	rc = ncp_negotiate(s.cl, (uint16_t)bufsize);
	if (rc) {
		rc = fail("negotiating the buffer size", NULL, rc);
		goto out;
	}
	rc = run_command(&s, argc - optind, argv + optind);
out:
	if (s.sap)
		refind_stop(&s);
	ncp_client_free(s.cl);	/* destroys the connection */
	ipx_sap_free(s.sap);
	cli_node_close(&s.cn);
	return rc;
}
