/* The threads of the library's calls that use several (a large List's load): started per call, joined
 * before it returns; no thread outlives a call and none is kept between calls. */
#ifndef DSI_API_EXEC_H
#define DSI_API_EXEC_H

#include "core/exec.h"

/* The executor the snapshots' loads use (dsi_model_options.exec). */
extern const dsi_exec dsi_api_exec;

#endif
