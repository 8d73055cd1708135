/*
 * fuzz_common.h - what every libFuzzer harness in tests/fuzz shares: a
 * CHECK that survives NDEBUG, and (with -DFUZZ_REPLAY_MAIN) a main() that
 * replays corpus files without libFuzzer, so a gcc build can run them:
 *
 *   gcc -std=c11 -D_GNU_SOURCE -Iinclude -DFUZZ_REPLAY_MAIN -g \
 *       -fsanitize=address,undefined -o fuzz_hub_replay \
 *       tests/fuzz/fuzz_hub.c LIBRARY-SOURCES -lm
 *   ./fuzz_hub_replay tests/fuzz/corpus/hub crash-1234...
 *
 * (LIBRARY-SOURCES: every .c under src/base, src/link, src/ipx, src/hub
 * and src/bench, as the Makefile's fuzz rule uses; scripts/run-fuzz.sh
 * --replay does all this.)
 *
 * Each argument is a file, or a directory whose files are all replayed.
 */
#ifndef IPXLAB_FUZZ_COMMON_H
#define IPXLAB_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the code under test: report where, then crash so the
 * fuzzer keeps the input. */
#define CHECK(cond)                                                         \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",        \
				__FILE__, __LINE__, #cond);                 \
			abort();                                            \
		}                                                           \
	} while (0)

/* Lines in a text file's bytes: a last line without '\n' counts too. */
static inline size_t fuzz_count_lines(const uint8_t *data, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n')
			n++;
	return size && data[size - 1] != '\n' ? n + 1 : n;
}

/*
 * A file parser's error must read "NAME:LINE: reason" with LINE a line of
 * the input (1..lines); with 'whole_file', "NAME: reason" (a problem of
 * the whole file) is allowed too.
 */
static inline void fuzz_check_file_error(const char *err, const char *name,
					 size_t lines, int whole_file)
{
	size_t n = strlen(name);
	const char *p = err + n + 1;
	unsigned long line = 0;

	CHECK(strncmp(err, name, n) == 0 && err[n] == ':');
	if (whole_file && *p == ' ') {
		CHECK(p[1] != '\0');
		return;
	}
	CHECK(*p >= '0' && *p <= '9');
	while (*p >= '0' && *p <= '9') {
		line = line * 10 + (unsigned long)(*p - '0');
		CHECK(line <= lines);
		p++;
	}
	CHECK(line >= 1);
	CHECK(p[0] == ':' && p[1] == ' ' && p[2] != '\0');
}

#ifdef FUZZ_REPLAY_MAIN
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	/* An exact-size copy, so overreads land outside the allocation. */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		if (len)
			memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int replay_path(const char *path, unsigned *count)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (replay_file(path) < 0)
			return -1;
		(*count)++;
		return 0;
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(sub) < 0)
				rc = -1;
			else
				(*count)++;
		}
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (replay_path(argv[i], &count) < 0)
			rc = 1;
	fprintf(stderr, "replayed %u inputs\n", count);
	return rc;
}
#endif /* FUZZ_REPLAY_MAIN */

#endif
