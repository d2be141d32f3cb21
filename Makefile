# libdaemonset — the only build system. `make help` lists the targets.
# SPDX-License-Identifier: Apache-2.0

.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:

# ---- versions: the header is the single source of truth -------------------
hdr_version = $(shell sed -n 's/^\#define DS_VERSION_$(1) //p' include/daemonset/common.h)
MAJOR := $(call hdr_version,MAJOR)
MINOR := $(call hdr_version,MINOR)
PATCH := $(call hdr_version,PATCH)
VERSION := $(MAJOR).$(MINOR).$(PATCH)

# ---- install locations (GNU conventions; DESTDIR only prefixes) ------------
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
libdir ?= $(exec_prefix)/lib
includedir ?= $(prefix)/include
datarootdir ?= $(prefix)/share
mandir ?= $(datarootdir)/man
pkgconfigdir ?= $(libdir)/pkgconfig
INSTALL ?= install

# ---- tools and flags -------------------------------------------------------
# `make V=1` shows full command lines.
V ?= 0
ifeq ($(V),0)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
else
Q :=
say = @true
endif
CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
PKG_CONFIG ?= pkg-config
PYTHON ?= python3
BUILD ?= build
CFLAGS ?= -O2 -g
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=

DEP_PKGS := jansson yaml-0.1
# `make SIMDJSON=1`: a List's items are parsed by simdjson (lib/core/jsonfront_simd.cpp, C++17) into
# the trees jansson would build, several times faster. The cost: the library then needs a C++
# runtime (libstdc++) and libsimdjson beside jansson, so the default build stays C with jansson only.
SIMDJSON ?= 0
ifeq ($(SIMDJSON),1)
DEP_PKGS += simdjson
SIMD_DEFS := -DDSI_SIMDJSON
SIMD_LIBS := -lstdc++
LIB_CXX_SRCS := $(sort $(wildcard lib/*/*.cpp))
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEP_PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(DEP_PKGS) 2>/dev/null) $(SIMD_LIBS)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

# Warnings fail the build only where asked: WERROR=1 (CI sets it; make check and make sanitize set it
# themselves). A plain make prints them, so a newer compiler's new warning does not break a user's build.
WERROR ?= $(if $(filter check sanitize,$(MAKECMDGOALS)),1,0)
export WERROR
WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat-security -Wundef
STD := -std=c11 -D_POSIX_C_SOURCE=200809L
ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude -Ilib $(PKG_CFLAGS) $(SIMD_DEFS)
# The library alone also converts no integer silently (-Wconversion, which in C includes -Wsign-conversion).
LIB_WARN := -Wconversion
LIB_CFLAGS = $(ALL_CFLAGS) $(LIB_WARN) -fPIC -fvisibility=hidden
# the C++ of SIMDJSON=1 builds: C's warnings that C++ has, -Wconversion included
CXX_WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wshadow -Wconversion -Wpointer-arith -Wformat-security \
	-Wundef
LIB_CXXFLAGS = -std=c++17 $(CXX_WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude -Ilib $(PKG_CFLAGS) $(SIMD_DEFS) -fPIC \
	-fvisibility=hidden
LDLIBS_LIB = $(PKG_LIBS) -lpthread -lm

SONAME := libdaemonset.so.$(MAJOR)
SHLIB := $(BUILD)/lib/libdaemonset.so.$(VERSION)
STLIB := $(BUILD)/lib/libdaemonset.a
PCFILE := $(BUILD)/lib/daemonset.pc
VERSION_SCRIPT := lib/api/libdaemonset.map

LIB_SRCS := $(sort $(wildcard lib/*/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB_CXX_SRCS:%.cpp=$(BUILD)/obj/%.o)

# examples/dsctl is the CLI; every other examples/*.c is a small program
DSCTL_SRCS := $(sort $(wildcard examples/dsctl/*.c))
DSCTL := $(if $(DSCTL_SRCS),$(BUILD)/bin/dsctl)
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLES := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%)

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_SUPPORT := $(sort $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c)))
UNIT_SUPPORT_OBJS := $(UNIT_SUPPORT:%.c=$(BUILD)/obj/%.o)

MAN_PAGES := $(sort $(wildcard man/man1/*.1 man/man3/*.3 man/man5/*.5 man/man7/*.7))

.PHONY: FORCE all lib examples tests check simd-check unit python-tests sanitize faults demo install uninstall clean help \
	deps deps-check bench fuzz valgrind tsan abi-check abi-dump lint rules oracle

all: deps-check lib examples

lib: $(SHLIB) $(BUILD)/lib/$(SONAME) $(BUILD)/lib/libdaemonset.so $(STLIB) $(PCFILE)

help:
	@echo "make            build libdaemonset.so.$(VERSION), libdaemonset.a, dsctl and the examples"
	@echo "make check      install missing build dependencies (as root), build, run every test"
	@echo "make demo       the same dependencies, then dsctl on the sample cluster"
	@echo "make sanitize   the tests again under AddressSanitizer and UBSan (build/san)"
	@echo "make valgrind   the unit tests under valgrind memcheck"
	@echo "make tsan       the thread-safety test under ThreadSanitizer (clang)"
	@echo "make fuzz       each libFuzzer target for FUZZ_SECONDS (default 60)"
	@echo "make bench      the benchmark (prints JSON and a table); BENCH_INGEST_ONLY=1: whole-dump ingest only"
	@echo "make faults     the list-watch loop's whole fault matrix and its long HTTP tests (~20 min)"
	@echo "make abi-check  compare the ABI with the baselines in tests/abi/ (abidiff)"
	@echo "make lint       the rules of lib/README.md (includes, calls, names, exports), clang-format, cppcheck"
	@echo "make WERROR=1   warnings are errors (CI, make check and make sanitize set it)"
	@echo "make SIMDJSON=1 List items parsed by simdjson (C++17, libsimdjson-dev): faster, costs a C++ runtime"
	@echo "make SIMDJSON=1 BUILD=build/simd simd-check   the suites that read JSON, in that build (CI)"
	@echo "make oracle     upstream's template hash with Go and k8s.io/api v0.25-v0.29: rewrites the test"
	@echo "                vectors (K8S_API_GIT, K8S_APIMACHINERY_GIT: see tests/oracle/run.sh)"
	@echo "make install    PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)"

# ---- build dependencies -----------------------------------------------------
# tests/tools.sh is the one place that installs what a target needs (apt-get as root; otherwise it
# prints the exact command and stops).
deps:
	@PKG_CONFIG=$(PKG_CONFIG) PYTHON=$(PYTHON) sh tests/tools.sh build
	@$(if $(filter 1,$(SIMDJSON)),PKG_CONFIG=$(PKG_CONFIG) sh tests/tools.sh simdjson,true)

# Plain `make` only checks, and says what to install.
deps-check:
	@PKG_CONFIG=$(PKG_CONFIG) PYTHON=$(PYTHON) sh tests/tools.sh build --check

# `make print-VAR`: a variable's value, for the scripts in tests/ that build with the same flags.
print-%:
	@echo '$($*)'

# ---- the library --------------------------------------------------------------
$(BUILD)/obj/lib/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/lib/%.o: lib/%.cpp
	@mkdir -p $(dir $@)
	$(call say,CXX,$<)
	$(Q)$(CXX) $(LIB_CXXFLAGS) -MMD -MP -c $< -o $@

$(SHLIB): $(LIB_OBJS) $(VERSION_SCRIPT)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) -shared -fPIC -Wl,-soname,$(SONAME) -Wl,--version-script=$(VERSION_SCRIPT) -Wl,--no-undefined \
		$(CFLAGS) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(LIB_OBJS) $(LDLIBS_LIB)

$(BUILD)/lib/$(SONAME): $(SHLIB)
	$(Q)ln -sf $(notdir $(SHLIB)) $@

$(BUILD)/lib/libdaemonset.so: $(BUILD)/lib/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

$(STLIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $(LIB_OBJS)

# Rewritten on every run when its text changes, so that `make install PREFIX=...`
# after a plain `make` installs a .pc that names the new prefix.
# A libdir the dynamic loader does not search by itself (anything but /lib, /usr/lib and their
# lib64 and multiarch forms: /usr/local/lib needs ldconfig first, a PREFIX of one's own is never
# searched) gets an rpath in Libs, so that a program built with `pkg-config --libs daemonset` runs
# without LD_LIBRARY_PATH or ldconfig (tests/python/test_install.py).
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
LOADER_DIRS := /lib /usr/lib /lib64 /usr/lib64 $(if $(MULTIARCH),/lib/$(MULTIARCH) /usr/lib/$(MULTIARCH))
PC_RPATH = $(if $(filter $(LOADER_DIRS),$(patsubst %/,%,$(libdir))),,-Wl,-rpath,$${libdir} )
$(PCFILE): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(prefix)' 'exec_prefix=$(exec_prefix)' 'libdir=$(libdir)' \
	  'includedir=$(includedir)' '' 'Name: daemonset' \
	  'Description: Kubernetes DaemonSet semantics as pure functions behind a stable C ABI' \
	  'Version: $(VERSION)' 'Requires.private: $(DEP_PKGS)' 'Libs: -L$${libdir} $(PC_RPATH)-ldaemonset' \
	  'Libs.private: -lpthread -lm$(if $(SIMD_LIBS), $(SIMD_LIBS))' 'Cflags: -I$${includedir}' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

FORCE:

# ---- examples and the CLI (public API only, linked against the shared library) --
EXAMPLE_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude
EXAMPLE_LDFLAGS = -L$(BUILD)/lib -Wl,-rpath,'$$ORIGIN/../lib' $(EXTRA_LDFLAGS)

examples: $(DSCTL) $(EXAMPLES)

$(BUILD)/obj/examples/%.o: examples/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/bin/dsctl: $(DSCTL_SRCS:%.c=$(BUILD)/obj/%.o) | lib
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) -o $@ $^ $(EXAMPLE_LDFLAGS) -ldaemonset $(PKG_LIBS)

$(BUILD)/examples/%: $(BUILD)/obj/examples/%.o | lib
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) -o $@ $< $(EXAMPLE_LDFLAGS) -ldaemonset $(PKG_LIBS)

# ---- examples/controller: the driver's transports and the host program dsrun -----
# dsrun always has the in-memory transport; built where libcurl is (pkg-config
# libcurl), it also speaks HTTP to an API server (--url, --in-cluster).
CURL_OK := $(shell $(PKG_CONFIG) --exists libcurl 2>/dev/null && echo yes)
CURL_CFLAGS := $(if $(CURL_OK),$(shell $(PKG_CONFIG) --cflags libcurl 2>/dev/null))
CURL_LIBS := $(if $(CURL_OK),$(shell $(PKG_CONFIG) --libs libcurl 2>/dev/null))
DSRUN := $(BUILD)/examples/controller/dsrun
DSRUN_OBJS := $(addprefix $(BUILD)/obj/examples/controller/,dsrun.o leader.o memtransport.o $(if $(CURL_OK),httptransport.o))

examples: $(DSRUN)

$(BUILD)/obj/examples/controller/dsrun.o: EXAMPLE_CFLAGS += $(if $(CURL_OK),-DDSRUN_HTTP)
$(BUILD)/obj/examples/controller/httptransport.o: EXAMPLE_CFLAGS += $(CURL_CFLAGS)

$(DSRUN): $(DSRUN_OBJS) | lib
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) -o $@ $^ -L$(BUILD)/lib -Wl,-rpath,'$$ORIGIN/../../lib' $(EXTRA_LDFLAGS) \
		-ldaemonset $(PKG_LIBS) $(CURL_LIBS)

# ---- tests ----------------------------------------------------------------------
# Unit tests link the static archive so they can reach internal functions.
$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests/unit -MMD -MP -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(UNIT_SUPPORT_OBJS) $(STLIB)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(filter %.o,$^) $(STLIB) $(PKG_LIBS) \
		$(CHECK_LIBS) -lpthread -lm

# The driver's suites run it against the in-memory cluster of examples/controller (dsrun's own),
# linked in rather than included.
$(BUILD)/tests/test_driver $(BUILD)/tests/test_driver_faults: $(BUILD)/obj/examples/controller/memtransport.o

# The fake API server of tests/support (fakeapi.h, fakehost.h): in the suites that run the controller
# against it.
FAKE_OBJS := $(addprefix $(BUILD)/obj/tests/support/,fakeapi.o fakecluster.o fakepatch.o fakehost.o fakeloop.o)
FAKE_SUITES := $(addprefix $(BUILD)/tests/,test_fakeapi test_upstream_integration test_upstream_e2e test_watchloop \
	test_watchloop_faults)
$(filter $(UNIT_BINS),$(FAKE_SUITES)): $(FAKE_OBJS)
# The replays of upstream's DaemonSet tests share tests/support/replay.c.
$(filter $(UNIT_BINS),$(addprefix $(BUILD)/tests/,test_upstream_integration test_upstream_e2e)): \
	$(BUILD)/obj/tests/support/replay.o

# Programs the Python tests run: yamlecho writes JSON values as YAML with dsctl's emitter.
YAMLECHO := $(BUILD)/tests/support/yamlecho
$(YAMLECHO): $(BUILD)/obj/tests/support/yamlecho.o $(BUILD)/obj/examples/dsctl/yamlout.o
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# jsonpathecho prints a JSON document through dsctl's JSONPath engine and custom columns.
JSONPATHECHO := $(BUILD)/tests/support/jsonpathecho
$(JSONPATHECHO): $(BUILD)/obj/tests/support/jsonpathecho.o $(BUILD)/obj/examples/dsctl/jsonpath.o \
		$(BUILD)/obj/examples/dsctl/columns.o $(BUILD)/obj/examples/dsctl/buf.o
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# fakeapiserver serves the fake API server of tests/support over HTTP, for kubectl, dsrun --url and kubectl-ds.
FAKEAPISERVER := $(BUILD)/tests/support/fakeapiserver
$(FAKEAPISERVER): $(BUILD)/obj/tests/support/fakeserver.o $(filter-out %/fakehost.o %/fakeloop.o,$(FAKE_OBJS)) $(STLIB)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS) -o $@ $(filter %.o,$^) $(STLIB) $(PKG_LIBS) -lpthread -lm

tests: lib examples $(UNIT_BINS) $(YAMLECHO) $(JSONPATHECHO) $(FAKEAPISERVER)

# Each suite prints Check's own summary line; the runner adds a total.
unit: tests
	@BUILD=$(BUILD) sh tests/run-unit.sh $(UNIT_BINS)

python-tests: lib examples $(YAMLECHO) $(JSONPATHECHO) $(FAKEAPISERVER)
	@DSRUN=$(abspath $(DSRUN)) FAKEAPISERVER=$(abspath $(FAKEAPISERVER)) YAMLECHO=$(abspath $(YAMLECHO)) JSONPATHECHO=$(abspath $(JSONPATHECHO)) DAEMONSET_LIB=$(abspath $(BUILD)/lib/$(SONAME)) PYTHONPATH=$(abspath examples/python) \
		$(PYTHON) -m unittest discover -s tests/python -t tests/python -p 'test_*.py'

check: deps
	@sh tests/tools.sh browser || echo "(without chromium the SVG rendering tests are skipped)"
	@sh tests/tools.sh shells || echo "(without zsh and tmux the zsh completion and terminal tests are skipped)"
	@sh tests/tools.sh typing || echo "(without mypy the mypy --strict tests of the Python package are skipped)"
	@$(MAKE) --no-print-directory rules
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory python-tests
	@$(MAKE) --no-print-directory man-check

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_BUILD ?= build/san
sanitize: deps
	@DS_DIFF_CASES=$${DS_DIFF_CASES:-30000} DS_FAULT_RUNS=$${DS_FAULT_RUNS:-1} $(MAKE) --no-print-directory \
		BUILD=$(SAN_BUILD) CFLAGS="-O1 -g" EXTRA_CFLAGS="$(SAN_FLAGS)" EXTRA_LDFLAGS="$(SAN_FLAGS)" CK_FORK=no unit

# The list-watch loop's fault matrix at every call and event index (make check runs 3 of each,
# make sanitize 1), then the HTTP tests in their long forms (a 60-second storm of 500s).
faults: deps
	@$(MAKE) --no-print-directory lib examples $(BUILD)/tests/test_watchloop_faults
	@DS_FAULT_RUNS=0 CK_FORK=no $(BUILD)/tests/test_watchloop_faults
	@DS_FAULTS_FULL=1 DSRUN=$(abspath $(DSRUN)) DAEMONSET_LIB=$(abspath $(BUILD)/lib/$(SONAME)) \
		PYTHONPATH=$(abspath examples/python) $(PYTHON) -m unittest discover -s tests/python -t tests/python \
		-p 'test_loop_http.py'

demo: deps
	@$(MAKE) --no-print-directory all
	@$(BUILD)/bin/dsctl -f examples/cluster --now 2026-12-02T15:00:00Z demo

# ---- reliability and performance (scripts in tests/; see each for its options) -------
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
fuzz: deps
	@sh tests/tools.sh fuzz
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) sh tests/fuzz/run.sh

valgrind: deps
	@sh tests/tools.sh valgrind
	@$(MAKE) --no-print-directory BUILD=build/valgrind CFLAGS="-O1 -g -DDSI_BLOCKS_FROM_MALLOC" tests
	@BUILD=build/valgrind sh tests/valgrind.sh

tsan: deps
	@sh tests/tools.sh tsan
	@sh tests/tsan/run.sh

abi-dump: lib
	@BUILD=$(BUILD) sh tests/abi/check.sh dump

abi-check: lib
	@BUILD=$(BUILD) sh tests/abi/check.sh check

# The rules of lib/README.md (tests/lint/rules.py): includes and calls point down, ds_* only in api and
# scenario, nothing below controller reads a clock or the host, no global mutable state, unique .c names,
# the version script and the headers agree. make check runs them too.
rules: lib
	@$(PYTHON) tests/lint/rules.py --objs $(BUILD)/obj/lib includes names symbols pure exports

# The rules and the formatting (clang-format), each check shown to fail on a planted violation
# (tests/lint/test_rules.py), the public headers alone in C89, C99 and C++11 and the deprecation macros
# (tests/lint/test_headers.py), then cppcheck's warning and portability checks over the library: any finding fails.
# `make SIMDJSON=1 simd-check` (CI): the suites whose inputs go through the JSON front end, in a
# SIMDJSON=1 build (BUILD=build/simd beside the default build), instead of the whole make check twice;
# fuzz_jsonfront compares the front ends in make fuzz, whose build has simdjson's when it is installed.
SIMD_SUITES := jsonfront ingest load_stream regress_fuzz node_event snapshot upstream_e2e manifests
simd-check: deps
	@$(if $(filter 1,$(SIMDJSON)),true,echo "simd-check: run it as make SIMDJSON=1 simd-check" >&2; exit 2)
	@$(MAKE) --no-print-directory $(addprefix $(BUILD)/tests/test_,$(SIMD_SUITES))
	@BUILD=$(BUILD) sh tests/run-unit.sh $(addprefix $(BUILD)/tests/test_,$(SIMD_SUITES))

lint: lib
	@sh tests/tools.sh lint
	@$(PYTHON) tests/lint/rules.py --objs $(BUILD)/obj/lib all
	@RULES_OBJS=$(abspath $(BUILD)/obj/lib) $(PYTHON) -m unittest tests/lint/test_rules.py tests/lint/test_headers.py \
		>$(BUILD)/lint-tests.log 2>&1 && echo "lint: each rule fails on its planted violation;" \
		"the public headers compile alone as C89, C99 and C++11 ($$(grep -o 'Ran [0-9]* tests' $(BUILD)/lint-tests.log))" \
		|| { cat $(BUILD)/lint-tests.log; exit 1; }
	@cppcheck --quiet --std=c11 --enable=warning,portability --inline-suppr --error-exitcode=1 \
		-Iinclude -Ilib --suppress=missingIncludeSystem lib/ && echo "lint: cppcheck found nothing in lib/"

bench: deps
	@$(MAKE) --no-print-directory BUILD=build/bench CFLAGS="-O2 -g" lib
	@BUILD=build/bench sh tests/bench/run.sh

# Upstream's template hash built from k8s.io/api's sources with Debian's Go (tests/oracle/run.sh): writes
# tests/vectors/templatehash/vectors.json, which the unit tests check lib/model/gohash.c against. Needs
# the network-free ingredients run.sh names; without them it says what is missing and succeeds.
oracle:
	@sh tests/tools.sh oracle || echo "(oracle: the Go toolchain could not be installed)"
	@PYTHON=$(PYTHON) sh tests/oracle/run.sh

# ---- documentation ------------------------------------------------------------------
.PHONY: man-check
man-check: lib
	@BUILD=$(BUILD) sh tests/man-check.sh

# ---- install ------------------------------------------------------------------------
# The Python package goes to pythondir for $(PYTHON) (Debian's python: $(prefix)/lib/python3.X/dist-packages,
# on its sys.path for /usr/local), with $(libdir) recorded in it so that it loads the library installed here.
PYTHON_PKG_TOOL := examples/python/tools/daemonset_build.py
pythondir ?= $(shell $(PYTHON) $(PYTHON_PKG_TOOL) sitedir $(prefix))

install: all
	$(INSTALL) -d $(DESTDIR)$(libdir) $(DESTDIR)$(includedir)/daemonset $(DESTDIR)$(pkgconfigdir) \
		$(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man3 $(DESTDIR)$(mandir)/man5 $(DESTDIR)$(mandir)/man7
	$(INSTALL) -m 0755 $(SHLIB) $(DESTDIR)$(libdir)/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(libdir)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(libdir)/libdaemonset.so
	$(INSTALL) -m 0644 $(STLIB) $(DESTDIR)$(libdir)/
	$(INSTALL) -m 0644 include/daemonset.h $(DESTDIR)$(includedir)/
	$(INSTALL) -m 0644 include/daemonset/*.h $(DESTDIR)$(includedir)/daemonset/
	$(INSTALL) -m 0644 $(PCFILE) $(DESTDIR)$(pkgconfigdir)/
	$(if $(DSCTL),$(INSTALL) -m 0755 $(DSCTL) examples/dsctl/kubectl-ds $(DESTDIR)$(bindir)/)
	$(if $(DSCTL),$(INSTALL) -d $(DESTDIR)$(datarootdir)/bash-completion/completions $(DESTDIR)$(datarootdir)/zsh/site-functions)
	$(if $(DSCTL),$(DSCTL) completion bash > $(DESTDIR)$(datarootdir)/bash-completion/completions/dsctl)
	$(if $(DSCTL),$(DSCTL) completion zsh > $(DESTDIR)$(datarootdir)/zsh/site-functions/_dsctl)
	$(if $(wildcard man/man1/*.1),$(INSTALL) -m 0644 man/man1/*.1 $(DESTDIR)$(mandir)/man1/)
	$(if $(wildcard man/man3/*.3),$(INSTALL) -m 0644 man/man3/*.3 $(DESTDIR)$(mandir)/man3/)
	$(if $(wildcard man/man5/*.5),$(INSTALL) -m 0644 man/man5/*.5 $(DESTDIR)$(mandir)/man5/)
	$(if $(wildcard man/man7/*.7),$(INSTALL) -m 0644 man/man7/*.7 $(DESTDIR)$(mandir)/man7/)
	$(PYTHON) $(PYTHON_PKG_TOOL) install --root="$(DESTDIR)" --libdir="$(libdir)" --pythondir="$(pythondir)" "$(prefix)"

uninstall:
	rm -f $(DESTDIR)$(libdir)/libdaemonset.so* $(DESTDIR)$(libdir)/libdaemonset.a
	rm -f $(DESTDIR)$(includedir)/daemonset.h $(DESTDIR)$(pkgconfigdir)/daemonset.pc
	rm -rf $(DESTDIR)$(includedir)/daemonset
	rm -f $(DESTDIR)$(bindir)/dsctl $(DESTDIR)$(bindir)/kubectl-ds
	rm -f $(DESTDIR)$(datarootdir)/bash-completion/completions/dsctl $(DESTDIR)$(datarootdir)/zsh/site-functions/_dsctl
	rm -f $(addprefix $(DESTDIR)$(mandir)/,$(patsubst man/%,%,$(MAN_PAGES)))
	$(PYTHON) $(PYTHON_PKG_TOOL) uninstall --root="$(DESTDIR)" --pythondir="$(pythondir)" "$(prefix)"

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
