/*
 * fuzz_ncp_rights.c - libFuzzer harness for the NCP server's trustee
 * store parser (src/fileserver/rights.c, the --rights file): the input
 * is the file; a server with volumes SYS and DATA and the users ALICE
 * and BOB is started on it.
 *
 * Invariants: no crash; either the server starts, or it refuses with
 * IPX_EINVAL and a message "FILE:LINE: ..." whose line is one of the
 * input's; a server that starts is freed cleanly.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/ncp_server.h"

#include "fuzz_ncp_world.h"

static struct ncp_world w;
static char root[64], file[128];
static struct ncp_server_opts o;

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void cleanup(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void world(void)
{
	static char users[128];
	FILE *f;

	ncp_world_open(&w);
	snprintf(root, sizeof(root), "/tmp/fuzz-rights.XXXXXX");
	CHECK(mkdtemp(root));
	atexit(cleanup);
	snprintf(file, sizeof(file), "%s/rights", root);
	snprintf(users, sizeof(users), "%s/users", root);
	f = fopen(users, "w");
	CHECK(f);
	fputs("alice a\nbob -\n", f);
	fclose(f);
	o.name = "FUZZRTS";
	o.nvolumes = 2;
	o.users_file = users;
	o.rights_file = file;
	o.max_connections = 2;
	strcpy(o.volumes[0].name, "SYS");
	strcpy(o.volumes[1].name, "DATA");
	o.volumes[1].read_only = true;
	for (int i = 0; i < 2; i++) {
		snprintf(o.volumes[i].dir, sizeof(o.volumes[i].dir), "%s/v%d",
			 root, i);
		CHECK(mkdir(o.volumes[i].dir, 0755) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct ncp_server *srv = NULL;
	char err[512];
	FILE *f;
	int rc;

	if (!ready) {
		world();
		ready = true;
	}
	f = fopen(file, "wb");
	CHECK(f);
	CHECK(fwrite(data, 1, size, f) == size);
	fclose(f);
	rc = ncp_server_new(w.a, &o, &srv, err, sizeof(err));
	if (rc == IPX_OK) {
		ncp_server_free(srv);
		return 0;
	}
	CHECK(rc == IPX_EINVAL);
	fuzz_check_file_error(err, file, fuzz_count_lines(data, size), 0);
	return 0;
}
