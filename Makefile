# rarperf: confgen, rarbench, rarlab, rarplot. See README.md.
# Sources are found by pattern, so a new module needs no edit here, only a new layer does:
#   src/<layer>/*.c      -> build/lib<layer>.a (one archive per layer: LAYERS below)
#   confgen/*.c but main -> build/libconfgen.a (the policy library)
#   confgen/main.c       -> bin/confgen
#   src/<prog>/*.c       -> bin/<prog> (PROGS: the folders with a main.c)
#   tests/unit/test_*.c  -> build/tests/test_* (plain) and build-asan/tests/test_* (ASan+UBSan)
#   fuzz/fuzz_*.c        -> build/fuzz/fuzz_* (libFuzzer, clang)

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
CLANG ?= clang
PKG_CONFIG ?= pkg-config
PKGS := libcjson libcbor libssh libcrypto
FUZZ_SECONDS ?= 20

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARN := -Wall -Wextra -Wshadow -Werror
DEFS := -D_GNU_SOURCE -DRARPERF_VERSION='"$(VERSION)"' -DRARPERF_GIT_COMMIT='"$(GIT_COMMIT)"' \
	-DRARPERF_DATADIR='"$(PREFIX)/share/rarperf"'
BASE_CFLAGS := -std=c11 $(WARN) $(DEFS) $(PKG_CFLAGS) -MMD -MP
CFLAGS ?= -O2 -g
LDLIBS := $(PKG_LIBS) -lm
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# The layers, lowest first. Each folder may include the headers of the layers it USES and no
# others: a header that reaches up a layer fails to compile. Programs link their archives in
# LINK_ORDER (every archive before those it depends on).
LAYERS := common confgen bench plan sweep lab results fit fitio
common_USES :=
confgen_USES := common
bench_USES := common
plan_USES := common confgen bench
sweep_USES := common confgen bench plan
lab_USES := common
results_USES := common
fit_USES := common results
fitio_USES := common results fit
rarbench_USES := common confgen bench plan sweep
rarlab_USES := common confgen bench plan sweep lab results fit fitio
rarplot_USES := common results fit fitio
rarsite_USES := common results fit fitio
LINK_ORDER := lab sweep plan fitio fit results bench confgen common
layer_dir = $(if $(filter confgen,$(1)),confgen,src/$(1))
layer_srcs = $(filter-out confgen/main.c,$(wildcard $(call layer_dir,$(1))/*.c))
layer_incs = $(foreach l,$($(1)_USES) $(1),-I$(call layer_dir,$(l)))
layer_libs = $(foreach l,$(filter $($(1)_USES),$(LINK_ORDER)),$(2)/lib$(l).a)
ALL_INCS := $(foreach l,$(LAYERS),-I$(call layer_dir,$(l)))
ALL_LIBS = $(foreach l,$(LINK_ORDER),$(1)/lib$(l).a)

PROGS := $(notdir $(patsubst %/,%,$(dir $(wildcard src/*/main.c))))
BINS := $(addprefix bin/,$(PROGS)) $(if $(wildcard confgen/main.c),bin/confgen) bin/rarref bin/rarkref bin/rarlaunch
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_TESTS := $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRCS))
ASAN_TESTS := $(patsubst tests/unit/%.c,build-asan/tests/%,$(UNIT_SRCS))
FUZZ_SRCS := $(wildcard fuzz/fuzz_*.c)
FUZZERS := $(patsubst fuzz/%.c,build/fuzz/%,$(FUZZ_SRCS))
MANS := $(wildcard man/*.1)

.PHONY: all check check-fast check-tests unit asan valgrind fuzz lint install clean provision provision-if-needed history-if-needed provision-demo provision-dev provision-history demo plots \
	lab-up lab-down site check-site
all: $(BINS)

# --- libraries ---------------------------------------------------------------
build/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(INCS) $(CFLAGS) -c -o $@ $<

build-asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(INCS) $(ASAN_FLAGS) -c -o $@ $<

define layer_rule
build/$(call layer_dir,$(1))/%.o build-asan/$(call layer_dir,$(1))/%.o: INCS = $(call layer_incs,$(1))
# Each archive is written anew from its members (and again when the Makefile changes), so a
# source moved to another layer (confgen/jsonw.c to src/common) leaves no stale copy behind.
build/lib$(1).a: $(patsubst %.c,build/%.o,$(call layer_srcs,$(1))) Makefile
	rm -f $$@ && $$(AR) rcs $$@ $$(filter %.o,$$^)
build-asan/lib$(1).a: $(patsubst %.c,build-asan/%.o,$(call layer_srcs,$(1))) Makefile
	rm -f $$@ && $$(AR) rcs $$@ $$(filter %.o,$$^)
endef
$(foreach l,$(LAYERS),$(eval $(call layer_rule,$(l))))

LIBS := $(call ALL_LIBS,build)
ASAN_LIBS := $(call ALL_LIBS,build-asan)

# The commit the binaries name (meta.rarperf.commit, --version): the objects that print it depend
# on build/git-commit, rewritten only when HEAD moves, so that an object compiled at an earlier
# commit is compiled again instead of naming that commit in a binary built from later sources.
COMMIT_USERS := $(shell grep -l RARPERF_GIT_COMMIT src/*/*.c confgen/*.c 2>/dev/null)
build/git-commit: FORCE
	@mkdir -p build
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' >$@
$(patsubst %.c,build/%.o,$(COMMIT_USERS)) $(patsubst %.c,build-asan/%.o,$(COMMIT_USERS)): build/git-commit
.PHONY: FORCE
FORCE:

# --- programs ----------------------------------------------------------------
build/confgen/main.o: INCS = $(call layer_incs,confgen)
bin/confgen: build/confgen/main.o build/libconfgen.a build/libcommon.a
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $< build/libconfgen.a build/libcommon.a $(LDLIBS)

define prog_rule
build/src/$(1)/%.o build-asan/src/$(1)/%.o: INCS = $(call layer_incs,$(1))
bin/$(1): $(patsubst %.c,build/%.o,$(wildcard src/$(1)/*.c)) $(call layer_libs,$(1),build)
	@mkdir -p bin
	$$(CC) $$(CFLAGS) -o $$@ $(patsubst %.c,build/%.o,$(wildcard src/$(1)/*.c)) $(call layer_libs,$(1),build) $$(LDLIBS)
endef
$(foreach p,$(PROGS),$(eval $(call prog_rule,$(p))))

# rarref: rarbench's calibration workload ("reference"), static so that its run is an exec and
# its own work, no dynamic loader; rarbench finds it beside its own executable.
bin/rarref: src/rarref/rarref.c build/git-commit
	@mkdir -p bin
	$(CC) -std=c11 $(WARN) $(DEFS) -O2 -static -o $@ $<

# rarkref: the kernel-side calibration ("kernel_reference": exec and reap, page faults, system
# calls; src/sweep/runner_kernel.h), static for the same reason; found beside rarbench too.
bin/rarkref: src/rarref/rarkref.c
	@mkdir -p bin
	$(CC) -std=c11 $(WARN) -O2 -static -o $@ $<

# rarlaunch: the process measured runs start from (src/bench/launchproto.h), static and small so
# that a run's peak RSS starts from its ~100 KiB, not from rarbench's; found beside rarbench.
RARLAUNCH_SRCS := src/rarlaunch/rarlaunch.c src/bench/launchproto.c src/bench/schedwait.c \
	src/common/errbuf.c src/common/numarg.c
bin/rarlaunch: $(RARLAUNCH_SRCS) src/bench/launchproto.h src/bench/schedwait.h src/common/numarg.h \
	build/git-commit
	@mkdir -p bin
	$(CC) -std=c11 $(WARN) $(DEFS) -O2 -static -Isrc/bench -Isrc/common -o $@ $(RARLAUNCH_SRCS) -lm

# --- tests -------------------------------------------------------------------
# Unit tests that run commands start them from bin/rarlaunch.
$(UNIT_TESTS) $(ASAN_TESTS): | bin/rarlaunch
build/tests/%: tests/unit/%.c tests/unit/harness.h $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(ALL_INCS) $(TEST_INCS) $(CFLAGS) -Itests/unit -o $@ $< $(TEST_OBJS) $(LIBS) $(LDLIBS)

build-asan/tests/%: tests/unit/%.c tests/unit/harness.h $(ASAN_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(ALL_INCS) $(TEST_INCS) $(ASAN_FLAGS) -Itests/unit -o $@ $< $(TEST_OBJS) $(ASAN_LIBS) $(LDLIBS)

# A test of a program's own module (tests/unit/test_M.c where src/<prog>/M.c exists, such as
# rarbench's report) sees that program's headers and links that one object besides the layers.
define prog_test_rule
build/tests/test_$(2) build-asan/tests/test_$(2): TEST_INCS = -Isrc/$(1)
build/tests/test_$(2): TEST_OBJS = build/src/$(1)/$(2).o
build/tests/test_$(2): build/src/$(1)/$(2).o
build-asan/tests/test_$(2): TEST_OBJS = build-asan/src/$(1)/$(2).o
build-asan/tests/test_$(2): build-asan/src/$(1)/$(2).o
endef
$(foreach t,$(patsubst tests/unit/test_%.c,%,$(UNIT_SRCS)),$(foreach p,$(PROGS),\
	$(if $(wildcard src/$(p)/$(t).c),$(eval $(call prog_test_rule,$(p),$(t))))))
# rarplot's history writes its report section, its diary table and runs gnuplot from more objects.
HISTORY_TEST_OBJS = src/rarplot/history_report.o src/rarplot/history_diary.o src/rarplot/plotrun.o
build/tests/test_history: TEST_OBJS += $(addprefix build/,$(HISTORY_TEST_OBJS))
build/tests/test_history: $(addprefix build/,$(HISTORY_TEST_OBJS))
build-asan/tests/test_history: TEST_OBJS += $(addprefix build-asan/,$(HISTORY_TEST_OBJS))
build-asan/tests/test_history: $(addprefix build-asan/,$(HISTORY_TEST_OBJS))
# rarsite's figure writes its text through sitehtml (whose tables read sitetsv).
SITESVG_TEST_OBJS = src/rarsite/sitehtml.o src/rarsite/sitetsv.o
build/tests/test_sitesvg: TEST_OBJS += $(addprefix build/,$(SITESVG_TEST_OBJS))
build/tests/test_sitesvg: $(addprefix build/,$(SITESVG_TEST_OBJS))
build-asan/tests/test_sitesvg: TEST_OBJS += $(addprefix build-asan/,$(SITESVG_TEST_OBJS))
build-asan/tests/test_sitesvg: $(addprefix build-asan/,$(SITESVG_TEST_OBJS))

unit: $(UNIT_TESTS)
asan: $(ASAN_TESTS)

# make check: the README's test command. On a fresh Debian 12 (as root) it first installs the
# Debian packages of tools/debian-packages and provisions the prefix; then every unit test plain,
# under ASan+UBSan and under valgrind, every integration script; ends with "N passed, N failed".
# The packages come first, in a make of their own: this Makefile asks pkg-config for flags when
# it is read, so the build must start after the libraries are there.
check:
	@sh tools/debian-deps.sh; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ] || exit $$rc
	@$(MAKE) --no-print-directory check-tests

check-tests: all $(UNIT_TESTS) $(ASAN_TESTS) $(FUZZERS)
	@sh tests/run.sh

valgrind: $(UNIT_TESTS)
	@RARPERF_ONLY=valgrind sh tests/run.sh

# make check-fast: what needs no provisioning and no root, in under 2 minutes on a warm tree
# (tests/README.md): the unit tests (plain build), the conventions' scripts, the integration
# scripts that need neither (tests/run.sh's fast_scripts); ends with "N passed, N failed" and
# fails when a test does.
check-fast: all $(UNIT_TESTS)
	@RARPERF_ONLY=fast sh tests/run.sh

# --- fuzzing (libFuzzer from Debian's clang) -----------------------------------
# The library is compiled once with the fuzzing flags (build-fuzz/) and every fuzz target links
# those objects: compiling it anew for each of the 21 targets took 17 min 30 s on 2 cores.
FUZZ_LIB_SRCS := $(foreach l,$(LAYERS),$(call layer_srcs,$(l))) $(filter-out %/main.c,$(wildcard src/rarbench/*.c src/rarlab/*.c src/rarplot/*.c src/rarsite/*.c))
FUZZ_LIB_OBJS := $(patsubst %.c,build-fuzz/%.o,$(FUZZ_LIB_SRCS))
FUZZ_INCS := $(ALL_INCS) -Isrc/rarbench -Isrc/rarlab -Isrc/rarplot -Isrc/rarsite
FUZZ_FLAGS := -std=c11 -Wall -Wextra -Werror $(DEFS) $(FUZZ_INCS) $(PKG_CFLAGS) -g -O1
build-fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c -o $@ $<
$(patsubst %.c,build-fuzz/%.o,$(filter $(FUZZ_LIB_SRCS),$(COMMIT_USERS))): build/git-commit
# Kept: as prerequisites of a pattern rule only, make would delete them after each build.
.SECONDARY: $(FUZZ_LIB_OBJS)
build/fuzz/%: fuzz/%.c $(FUZZ_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB_OBJS) $(LDLIBS)

fuzz: $(FUZZERS)
	@sh tests/fuzz.sh $(FUZZ_SECONDS) $(FUZZERS)

# --- style -------------------------------------------------------------------
# tools/lint-cloexec.sh: every descriptor opened in src/ and confgen/ is close-on-exec.
# yamllint and ansible-lint: every playbook (the top-level *.yml) and every role, listed or not.
# tools/lint-paths.sh: no path formatted without checking that it fit (STYLE 18).
# tools/lint-folder-headers.sh: each folder header lists exactly its folder's modules.
# tools/lint-no-io.sh: the statistics (src/fit) do no I/O. tools/lint-cycles.sh: no import circle
# (two files that use each other's functions, from the objects: after make all).
PLAYBOOKS := $(wildcard *.yml)
ROLES := $(wildcard roles/*/)
lint: all
	sh tools/lint-cloexec.sh
	sh tools/lint-paths.sh
	sh tools/lint-folder-headers.sh
	sh tools/lint-no-io.sh
	sh tools/lint-cycles.sh
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --inline-suppr \
		-D_GNU_SOURCE $(ALL_INCS) src confgen
	yamllint -s $(PLAYBOOKS) $(ROLES) group_vars inventory
	ansible-lint $(PLAYBOOKS) $(ROLES)

# --- install -----------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/rarperf/plots
	install -m 0755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	$(if $(MANS),install -m 0644 $(MANS) $(DESTDIR)$(PREFIX)/share/man/man1/)
	$(if $(wildcard plots/*.gp),install -m 0644 plots/*.gp $(DESTDIR)$(PREFIX)/share/rarperf/plots/)
	$(if $(wildcard doc/results/across-hosts.tsv),install -m 0644 doc/results/across-hosts.tsv $(DESTDIR)$(PREFIX)/share/rarperf/)
	install -d $(DESTDIR)$(PREFIX)/share/rarperf/site
	install -m 0644 src/rarsite/assets/site.js src/rarsite/assets/site.css $(DESTDIR)$(PREFIX)/share/rarperf/site/

# --- figures -----------------------------------------------------------------
# make plots RESULTS="a.json [b.json]" [PLOTS_OUT=DIR] [PLOTS_FLAGS="--stat mean ..."]:
# rarplot's report.md, fits.tsv and figures, by default beside the first results file.
PLOTS_OUT ?= $(dir $(firstword $(RESULTS)))plots
plots: bin/rarplot
	@test -n "$(RESULTS)" || { echo "usage: make plots RESULTS=results.json [PLOTS_OUT=DIR]" >&2; exit 2; }
	bin/rarplot -o $(PLOTS_OUT) $(PLOTS_FLAGS) $(RESULTS)

# --- the site (src/rarsite/README.md) ------------------------------------------
# make site: build/site/, a static site of every published run in doc/results/ (no server, no
# network: open build/site/index.html). make check-site: the same in headless Chromium
# (tests/integration/68-site.sh).
# From a fresh clone most of its time is compiling src/common and src/fit: on every core unless
# make was given -j already.
SITE_OUT ?= build/site
site:
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2)) bin/rarsite
	bin/rarsite -o $(SITE_OUT)
check-site: bin/rarsite
	@RARPERF_ONLY=integration RARPERF_TESTS='68-*' sh tests/run.sh

# --- provisioning (doc/provisioning.md) ----------------------------------------
# make provision: sudo, doas, RootAsRole (when buildable) and rarperf into RARPERF_PREFIX with
# Debian's Ansible and python; idempotent, so cheap when already provisioned. make check runs it
# first unless the prefix was provisioned from this very tree (tools/provision-stamp.sh: a hash of
# the playbook, its roles and the C tools it installs, written after a full provision).
RARPERF_PREFIX ?= /opt/rarperf
ANSIBLE_PLAYBOOK ?= /usr/bin/python3 /usr/bin/ansible-playbook
provision:
	@sh tools/with-progress.sh $(ANSIBLE_PLAYBOOK) -i inventory/local.ini install.yml \
		-e rarperf_prefix=$(RARPERF_PREFIX)
	@sh tools/provision-stamp.sh write $(RARPERF_PREFIX)

# 28-history-cache needs one release in the history build cache: RootAsRole 4.2.0 in CBOR, built
# only (not installed), once per machine (its cargo target starts from the prefix's, ~2 min).
history-if-needed: provision-if-needed
	@test "$$(id -u)" -ne 0 || ls $${RAR_HISTORY_CACHE:-/var/cache/rarperf/history}/out/dosr-*.json >/dev/null 2>&1 \
		|| RARPERF_PREFIX=$(RARPERF_PREFIX) RAR_HISTORY_INSTALL=0 RAR_RELEASES=4.2.0 RAR_HISTORY_FORMATS=cbor \
			bash tools/provision-history.sh
check-tests: history-if-needed

provision-if-needed:
	@sh tools/provision-stamp.sh fresh $(RARPERF_PREFIX) \
		|| test "$$(id -u)" -ne 0 || $(MAKE) --no-print-directory provision
check-tests: provision-if-needed

# make demo: the README's first command (tools/demo.sh): Ansible if missing, only what
# experiments/quick.json measures (provision-demo) unless the prefix was provisioned from this
# tree (its demo or full stamp), the sweep, results/quick/.
DEMO_OUT ?= results/quick
demo:
	@RARPERF_PREFIX=$(RARPERF_PREFIX) DEMO_OUT=$(DEMO_OUT) MAKE="$(MAKE)" sh tools/demo.sh

# What make demo measures and nothing more: of RootAsRole's extra versions only the newest
# (4.2.0, quick.json's subject beside 3.3.4); 4.0.3 and the PAM builds of sudo and doas (a second
# sudo build: about a minute) are left out; quick.json's subjects for them are optional, and
# `make provision` adds them. Its log (DEMO_PROVISION_LOG) keeps each task's time (Ansible's
# profile_tasks callback: a time line under each task header, every task slowest first at the end),
# so each first demo records where its provisioning time went (doc/provisioning.md).
DEMO_PROVISION_LOG ?= build/provision-demo.log
provision-demo:
	@PROGRESS_LOG=$(DEMO_PROVISION_LOG) ANSIBLE_CALLBACKS_ENABLED=ansible.posix.profile_tasks \
		PROFILE_TASKS_TASK_OUTPUT_LIMIT=all PROFILE_TASKS_SORT_ORDER=descending \
		sh tools/with-progress.sh $(ANSIBLE_PLAYBOOK) -i inventory/local.ini install.yml \
		-e rarperf_prefix=$(RARPERF_PREFIX) -e '{"rarperf_rootasrole_extra_versions": ["4.2.0"]}' \
		-e rarperf_sudo_pam=false -e rarperf_doas_pam=false
	@sh tools/provision-stamp.sh write-demo $(RARPERF_PREFIX)

# make provision-history RAR_RELEASES=all|"3.3.4 4.2.0 ...": RootAsRole releases from the crate
# registry, each storage it supports, as dosr-<version>-<storage> beside the prefix's builds, every
# one in facts.json (present, or absent with the reason); a build cache keyed by version, storage,
# features, toolchain and settings makes a second run build nothing (tools/provision-history.sh,
# doc/rootasrole-history.md). Not part of make check: about 4 to 8 minutes of cargo per release.
provision-history:
	@RARPERF_PREFIX=$(RARPERF_PREFIX) RAR_RELEASES="$(RAR_RELEASES)" bash tools/provision-history.sh

# make provision-dev RAR_DEV_TREE=DIR [RAR_DEV_REV=REV] [SUDO_DEV_TREE=DIR] [DOAS_DEV_TREE=DIR]
# [DEV_NAME=NAME] [DEV_STORAGES=cbor]: source trees built beside the releases as
# dosr-dev[-NAME]-json/-cbor (DEV_STORAGES: only those), sudo-dev[-NAME], doas-dev[-NAME]
# (tools/provision-dev.sh, doc/provisioning.md); rebuilt only when a tree's content changes. A tree that does not build: its last lines, exit 2, releases untouched.
provision-dev:
	@RARPERF_PREFIX=$(RARPERF_PREFIX) ANSIBLE_PLAYBOOK="$(ANSIBLE_PLAYBOOK)" RAR_DEV_TREE="$(RAR_DEV_TREE)" \
		RAR_DEV_REV="$(RAR_DEV_REV)" SUDO_DEV_TREE="$(SUDO_DEV_TREE)" SUDO_DEV_REV="$(SUDO_DEV_REV)" \
		DOAS_DEV_TREE="$(DOAS_DEV_TREE)" DOAS_DEV_REV="$(DOAS_DEV_REV)" DEV_NAME="$(DEV_NAME)" \
		DEV_STORAGES="$(DEV_STORAGES)" sh tools/provision-dev.sh

# --- a lab of identical VMs on this machine (doc/lab.md) -------------------------
# make lab-up LAB_VMS=N LAB_VCPUS=C LAB_MEMORY_MB=M: N libvirt VMs from one mmdebstrap image,
# inventory/lab-vms.ini and their host keys in inventory/known_hosts; again: no change.
# make lab-down: every domain, overlay, network and file lab-up made, nothing else.
# LAB_FLAGS passes more -e options to lab.yml (e.g. LAB_FLAGS="-e rarperf_labvm_accel=tcg").
LAB_VMS ?= 2
LAB_VCPUS ?= 4
LAB_MEMORY_MB ?= 8192
LAB_DISK_GB ?= 20
LAB_FLAGS ?=
lab-up:
	$(ANSIBLE_PLAYBOOK) lab.yml -e rarperf_labvm_count=$(LAB_VMS) -e rarperf_labvm_vcpus=$(LAB_VCPUS) \
		-e rarperf_labvm_memory_mb=$(LAB_MEMORY_MB) -e rarperf_labvm_disk_gb=$(LAB_DISK_GB) $(LAB_FLAGS)

lab-down:
	$(ANSIBLE_PLAYBOOK) lab.yml -e rarperf_labvm_state=absent $(LAB_FLAGS)

clean:
	rm -rf build build-asan build-fuzz bin

-include $(shell find build build-asan build-fuzz -name '*.d' 2>/dev/null)
