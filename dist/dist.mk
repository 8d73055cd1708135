# dist.mk - installing and packaging ipxlab (included by the Makefile):
# `make install` / `make uninstall` with PREFIX, DESTDIR and the usual
# directory variables; the manual pages and the bash completion, generated
# from the built binary's own command table and help text (`make man`,
# `make completion`); the systemd units; `make deb` (dpkg-deb) and
# `make dist` (a source tarball that remembers its commit).

# The commit `ipxlab --version` names: a tarball's COMMIT file ("HASH
# DATE"), else git's when this directory is the top of a checkout (with
# "-dirty" for uncommitted changes), else "unknown".
GIT_TOP := $(realpath $(shell git -C '$(CURDIR)' rev-parse --show-toplevel 2>/dev/null))
ifneq ($(wildcard COMMIT),)
COMMIT_INFO := $(shell cat COMMIT)
else ifeq ($(GIT_TOP),$(realpath $(CURDIR)))
COMMIT_INFO := $(shell git log -1 --abbrev=12 --format='%h %cs' 2>/dev/null)
GIT_DIRTY := $(if $(shell git --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null),-dirty)
endif
COMMIT := $(or $(word 1,$(COMMIT_INFO)),unknown)$(GIT_DIRTY)
# The date on the manual pages: the commit's, else SOURCE_DATE_EPOCH's or today.
DOC_DATE := $(or $(word 2,$(COMMIT_INFO)),$(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%F))

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/ipxlab
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
UNITDIR ?= $(PREFIX)/lib/systemd/system
# The units read their options from $(SYSCONFDIR)/ipxlab/.
SYSCONFDIR ?= /etc
INSTALL ?= install

MAN_DIR := $(BUILD)/man
MAN_STAMP := $(MAN_DIR)/.stamp
COMPLETION := $(BUILD)/completion/ipxlab
MKMAN_CFG := $(BUILD)/gen/mkman_shellcfg
UNITS := $(notdir $(basename $(wildcard dist/systemd/*.service.in)))
# The drop-in directory systemd reads for every ipxlab-*.service.
DROPIN := ipxlab-.service.d
CLI_TABLE := dist/cli-table.sh
DOC_MD := $(wildcard docs/*.md)

.PHONY: man completion docs install install-bin install-dev uninstall deb dist

version:
	@echo '$(VERSION) $(COMMIT)'

$(MKMAN_CFG): dist/man/mkman_shellcfg.c $(LIB)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  TOOL    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) -lm

# The pages are whatever the command table holds, so one stamp stands
# for the directory.
$(MAN_STAMP): $(BIN) $(MKMAN_CFG) $(CLI_TABLE) $(wildcard dist/man/*.in dist/man/*.sh dist/man/*.awk)
	$(if $(Q),@echo "  MAN     $(MAN_DIR)")
	$(Q)rm -rf $(MAN_DIR)
	$(Q)dist/man/gen-man.sh $(BIN) $(MKMAN_CFG) $(MAN_DIR) $(VERSION) $(DOC_DATE)
	$(Q)touch $@

$(COMPLETION): $(BIN) $(CLI_TABLE) dist/bash-completion/gen-completion.sh
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  GEN     $@")
	$(Q)dist/bash-completion/gen-completion.sh $(BIN) >$@.tmp && mv $@.tmp $@

man: $(MAN_STAMP)
completion: $(COMPLETION)
docs: man completion

# subst FILE: a template with the install directories filled in
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	-e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g'

install: install-bin install-dev

# What a user runs: the binary, its pages, completion, units, examples,
# the documents (docs/*.md in DOCDIR/docs, where --help and the pages cite
# them, and README.md's links find them), and the directory the units
# read their options from.
install-bin: $(BIN) $(PRELOAD) docs
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(DOCDIR)/docs
	$(INSTALL) -m 755 $(BIN) $(DESTDIR)$(BINDIR)/ipxlab
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)/ipxlab
	$(INSTALL) -m 644 $(PRELOAD) $(DESTDIR)$(LIBDIR)/ipxlab/
	$(INSTALL) -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(MAN_DIR)/*.5 $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/ipxlab
	$(foreach u,$(UNITS),$(SUBST) dist/systemd/$(u).in >$(DESTDIR)$(UNITDIR)/$(u) && \
		chmod 644 $(DESTDIR)$(UNITDIR)/$(u) &&) true
	$(INSTALL) -d $(DESTDIR)$(UNITDIR)/$(DROPIN)
	$(INSTALL) -m 644 dist/systemd/$(DROPIN)/sandbox.conf $(DESTDIR)$(UNITDIR)/$(DROPIN)/
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/ipxlab
	$(INSTALL) -m 644 README.md $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 $(DOC_MD) $(DESTDIR)$(DOCDIR)/docs/
	$(INSTALL) -m 644 dist/examples/*.conf $(DESTDIR)$(DOCDIR)/examples/

# What a C program needs to use the stack: the library, headers, ipxlab.pc.
install-dev: $(LIB)
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/ipxlab \
		$(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 644 include/ipxlab/*.h $(DESTDIR)$(INCLUDEDIR)/ipxlab/
	$(SUBST) dist/ipxlab.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/ipxlab.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/ipxlab.pc

# Everything install puts there (by name: ipxlab's own files and
# directories only), then the directories it made if they are empty.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ipxlab $(DESTDIR)$(MANDIR)/man1/ipxlab.1 \
		$(DESTDIR)$(MANDIR)/man1/ipxlab-*.1 \
		$(DESTDIR)$(MANDIR)/man5/ipxlab-shell.cfg.5 \
		$(DESTDIR)$(BASHCOMPDIR)/ipxlab \
		$(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS)) \
		$(DESTDIR)$(UNITDIR)/$(DROPIN)/sandbox.conf \
		$(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/examples/*.conf \
		$(addprefix $(DESTDIR)$(DOCDIR)/docs/,$(notdir $(DOC_MD))) \
		$(DESTDIR)$(LIBDIR)/libipxlab.a $(DESTDIR)$(INCLUDEDIR)/ipxlab/*.h \
		$(DESTDIR)$(PKGCONFIGDIR)/ipxlab.pc \
		$(DESTDIR)$(LIBDIR)/ipxlab/libipxlab-preload.so
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(LIBDIR)/ipxlab \
		$(DESTDIR)$(UNITDIR)/$(DROPIN) $(DESTDIR)$(SYSCONFDIR)/ipxlab \
		$(DESTDIR)$(INCLUDEDIR)/ipxlab 2>/dev/null

# A Debian package of install-bin in Debian's places (dist/debian/mkdeb.sh).
deb: $(BIN) docs
	$(Q)dist/debian/mkdeb.sh '$(MAKE)' '$(BUILD)' '$(SANITIZE)' '$(VERSION)' '$(COMMIT)' '$(DOC_DATE)'

# A source tarball of HEAD with a COMMIT file, so that builds from it name
# the commit too.
dist:
	@mkdir -p build
	$(Q)printf '%s\n' '$(firstword $(COMMIT_INFO)) $(word 2,$(COMMIT_INFO))' >build/COMMIT
	$(Q)git archive --format=tar.gz --prefix=ipxlab-$(VERSION)/ \
		--add-file=build/COMMIT -o build/ipxlab-$(VERSION).tar.gz HEAD
	@echo "build/ipxlab-$(VERSION).tar.gz"
