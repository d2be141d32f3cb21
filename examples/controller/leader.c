/* dsrun's leader election flags (see leader.h).
 * SPDX-License-Identifier: Apache-2.0 */
#include "leader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* hostname + "_" + a random (version 4) UUID, as kube-controller-manager's leader election does */
static void default_identity(char *buf, size_t size)
{
	char host[256] = "";
	unsigned char r[16];
	FILE *f = fopen("/dev/urandom", "rb");
	size_t got = f ? fread(r, 1, sizeof(r), f) : 0;
	if (f)
		fclose(f);
	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (got != sizeof(r)) {
		snprintf(buf, size, "%s_%ld", host, (long)getpid());
		return;
	}
	r[6] = (unsigned char)((r[6] & 0x0f) | 0x40);
	r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
	snprintf(buf, size, "%s_%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", host, r[0], r[1],
		 r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
}

int leader_flag(leader_options *o, const char *flag, const char *value)
{
	const char **s = !strcmp(flag, "--identity")          ? &o->identity
			 : !strcmp(flag, "--lease-namespace") ? &o->ns
			 : !strcmp(flag, "--lease-name")      ? &o->name
							      : NULL;
	int64_t *d = !strcmp(flag, "--lease-duration")   ? &o->lease_ms
		     : !strcmp(flag, "--renew-deadline") ? &o->renew_ms
		     : !strcmp(flag, "--retry-period")   ? &o->retry_ms
							 : NULL;
	if (!s && !d)
		return 0;
	char *end = NULL;
	double v = d ? strtod(value, &end) : 0;
	double unit = !d || end == value ? 0 : !strcmp(end, "ms") ? 1 : !*end || !strcmp(end, "s") ? 1000 : 0;
	if (s ? !*value : !(unit > 0 && v > 0 && v * unit < 1e12)) {
		fprintf(stderr, "dsrun: %s %s: expected %s\n", flag, value, s ? "a name" : "a duration (15s, 500ms)");
		return -1;
	}
	if (s)
		*s = value;
	else
		*d = (int64_t)(v * unit + 0.5);
	return 1;
}

int leader_config(const leader_options *o, char *identity, size_t size, ds_lease_config *out, ds_options *opts)
{
	if (o->identity)
		snprintf(identity, size, "%s", o->identity);
	else
		default_identity(identity, size);
	ds_lease_config c = DS_LEASE_CONFIG_INIT;
	c.identity = identity;
	c.namespace_ = o->ns;
	c.name = o->name;
	c.lease_duration_ms = o->lease_ms;
	c.renew_deadline_ms = o->renew_ms;
	*out = c;
	char retry[32];
	snprintf(retry, sizeof(retry), "%lldms", (long long)o->retry_ms);
	ds_error err;
	if (ds_options_set(opts, "leaseRetryPeriod", retry, &err) < 0) {
		fprintf(stderr, "dsrun: --retry-period: %s\n", err.message);
		return -1;
	}
	return 0;
}
