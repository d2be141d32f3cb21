/* The public ABI of <daemonset/common.h>: versions, errors, memory, time. The work is core's
 * (dsi_error_clear, dsi_free, dsi_time_*); only api and scenario define ds_* names (lib/README.md). */
#include <string.h>

#include "api/args.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/time.h"
#include "daemonset.h"

/* The library's version at run time, for bindings to compare with the headers. */
const char *ds_version(void) { return DS_VERSION_STRING; }

int ds_version_number(void) { return DS_VERSION_HEX; }

void ds_error_clear(ds_error *err) { dsi_error_clear(err); }

const char *ds_strerror(int code)
{
	switch (code) {
	case DS_OK: return "DS_OK: success";
	case DS_ENOMEM: return "DS_ENOMEM: out of memory";
	case DS_EARG: return "DS_EARG: invalid argument";
	case DS_ESYNTAX: return "DS_ESYNTAX: malformed JSON or YAML";
	case DS_ETYPE: return "DS_ETYPE: field has the wrong type";
	case DS_EVALUE: return "DS_EVALUE: field has a value that is not allowed";
	case DS_EMISSING: return "DS_EMISSING: required field is missing";
	case DS_ENOTFOUND: return "DS_ENOTFOUND: object not found";
	case DS_ELIMIT: return "DS_ELIMIT: limit exceeded";
	case DS_EUNSUPPORTED: return "DS_EUNSUPPORTED: unsupported kind or version";
	case DS_EINVALID: return "DS_EINVALID: object is invalid";
	case DS_EIO: return "DS_EIO: input/output error";
	case DS_ECONFLICT: return "DS_ECONFLICT: conflict";
	case DS_ETRANSPORT: return "DS_ETRANSPORT: transport failed";
	case DS_ESTATE: return "DS_ESTATE: not valid in this state";
	default: return "unknown error code";
	}
}
/* The one function callers use for memory the library returned. */
void ds_free(void *ptr) { dsi_free(ptr); }

int ds_time_parse(const char *text, ds_time *out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	/* out is only compared with NULL, never read: cppcheck's cross-function check takes the pointer
	 * array of the argument check for a read of *out in callers that pass an unset ds_time */
	// cppcheck-suppress ctuuninitvar
	DSI_ARGS_NONNULL(err, text, out);
	return dsi_time_parse(text, strlen(text), out, err);
}

int ds_time_format(ds_time t, char *buf, size_t size) { return dsi_time_format(t, buf, size); }
