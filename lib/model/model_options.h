/* The settings of the model layer (read when objects are loaded into a snapshot). */
#ifndef DSI_MODEL_OPTIONS_H
#define DSI_MODEL_OPTIONS_H

#include <jansson.h>

#include "core/exec.h"
#include "core/optparse.h"

/* How the snapshot came by an object (dsi_model_options.prepare's how). */
#define DSI_PREPARE_MANIFEST 1u /* from a manifest (no metadata.uid): the API server has not seen it */
#define DSI_PREPARE_DEFAULTS 2u /* the option applyDefaults is set */
#define DSI_PREPARE_LENIENT 4u  /* a pure function's input (dsi_model_options.lenient) */
/* With DSI_PREPARE_LENIENT, from a caller that reads a DaemonSet's `hashed` for its template hash
 * alone (no patch, no copy kept): */
#define DSI_PREPARE_HASH_ONLY 8u /* its members may come in another order than the canonical form's */
#define DSI_PREPARE_CHECKED 16u  /* obj has passed dsi_decode_check as its kind's type already */

/* What prepare made of an object. */
typedef struct dsi_prepared {
	json_t *obj;    /* new reference: the object to read instead of the one given (its canonical form), or NULL */
	json_t *hashed; /* new reference: a DaemonSet's template in canonical form where the object read keeps
			 * its own (lenient reads), or NULL */
	int defaulted;  /* the API server's defaults were applied to a manifest */
} dsi_prepared;

typedef struct dsi_model_options {
	int legacy_daemonsets; /* accept extensions/v1beta1 and apps/v1beta2 with their old defaults */
	/* objects from manifests (no metadata.uid: not served by an API server) */
	char *default_namespace; /* the namespace kubectl would give a namespaced object without one; "": none */
	int apply_defaults;      /* the API server's defaults, applied through `prepare` */
	/* not public options: */
	int lenient; /* the private snapshots of the pure functions read leniently (dsi_rd.lenient) */
	/* what the API layer (which owns the API server's decoding and defaulting, a layer above) does
	 * to an object (kind: a dsi_kind of snapshot.h) before the snapshot reads it; it may change obj
	 * in place. 0, or an error (err filled) that refuses the object. NULL: nothing. */
	int (*prepare)(json_t *obj, int kind, unsigned how, dsi_prepared *out, ds_error *err);
	/* the threads a load may use (the API layer's; NULL: the caller's thread alone) */
	const dsi_exec *exec;
} dsi_model_options;

extern const dsi_opt_table dsi_model_option_table;
const dsi_model_options *dsi_model_options_default(void);

#endif
