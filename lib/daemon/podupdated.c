#include "daemon/podupdated.h"

#include <stdio.h>
#include <string.h>

void dsi_revision_key_init(const dsi_cluster *c, const dsi_daemonset *ds, const char *hash, dsi_revision_key *k)
{
	memset(k, 0, sizeof(*k));
	k->has_hash = hash && *hash;
	if (k->has_hash)
		k->hash = dsi_atom_lookup_cstr(&c->atoms, hash);
	if (ds->has_template_generation) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%lld", (long long)ds->template_generation);
		k->generation = dsi_atom_lookup_cstr(&c->atoms, buf);
	}
}
