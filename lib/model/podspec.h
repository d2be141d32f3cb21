/* The parts of a PodSpec that placement, scheduling, planning and drain read. */
#ifndef DSI_PODSPEC_H
#define DSI_PODSPEC_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/labels.h"
#include "model/diskvolume.h"
#include "model/nodeselector.h"
#include "model/podaffinity.h"
#include "model/resourceclaim.h"
#include "model/topologyspread.h"
#include "model/resources.h"
#include "model/taints.h"

enum { DSI_PROTO_TCP = 0, DSI_PROTO_UDP = 1, DSI_PROTO_SCTP = 2 };

/* A container port with hostPort > 0 (empty hostIP means 0.0.0.0). */
typedef struct dsi_host_port {
	dsi_atom ip; /* DSI_ATOM_NONE = 0.0.0.0 */
	int32_t port;
	uint8_t proto;
} dsi_host_port;

/* A volume of the pod that names a PersistentVolumeClaim: persistentVolumeClaim.claimName, or an
 * ephemeral volume, whose claim is named <pod name>-<volume name> (ephemeral.VolumeClaimName). */
typedef struct dsi_claim_ref {
	dsi_atom name; /* the claimName ("": NONE), or the ephemeral volume's name */
	uint8_t ephemeral;
} dsi_claim_ref;

typedef struct dsi_podspec {
	dsi_atom node_name;
	dsi_atom target_node; /* util.GetTargetNodeName: nodeName, else the metadata.name pin */
	uint8_t host_network, host_pid, host_ipc;
	uint8_t has_priority;
	uint8_t preempt_never;    /* preemptionPolicy: Never */
	uint8_t sidecar_gate_off; /* a restartable init container with the SidecarContainers gate off */
	uint8_t has_emptydir;
	/* what the volume and claim plugins check, which the library does not evaluate */
	uint8_t has_pvc;             /* a persistentVolumeClaim or ephemeral volume */
	uint8_t has_csi;             /* an inline csi volume */
	uint8_t has_resource_claims; /* spec.resourceClaims */
	uint8_t has_intree_inline;   /* an inline in-tree volume csi-translation-lib migrates (IsInlineMigratable) */
	dsi_pod_claims claims;       /* spec.resourceClaims (and a Pod's status.resourceClaimStatuses) */
	int32_t priority;
	dsi_atom priority_class;
	int64_t termination_grace_seconds; /* default 30 */
	dsi_resources requests;            /* PodRequests in the scheduler's units */
	dsi_host_port *ports;
	uint32_t nports;
	/* required pod (anti-)affinity: read for every pod (an existing pod's anti-affinity binds the
	 * pods that come after it) */
	dsi_pod_affinity_terms pod_affinity, pod_anti_affinity;
	dsi_spread_constraints spread; /* topologySpreadConstraints */
	dsi_disk *disks;               /* gcePersistentDisk, awsElasticBlockStore, iscsi and rbd volumes */
	uint32_t ndisks;
	dsi_claim_ref *vclaims; /* the persistentVolumeClaim and ephemeral volumes, in order */
	uint32_t nvclaims;
	/* placement: only with DSI_PODSPEC_PLACEMENT */
	dsi_labels node_selector;
	dsi_node_selector required;  /* affinity.nodeAffinity.requiredDuringScheduling... */
	dsi_node_selector preferred; /* affinity.nodeAffinity.preferredDuringScheduling... */
	dsi_tolerations tolerations;
} dsi_podspec;

#define DSI_PODSPEC_PLACEMENT 1u /* also read nodeSelector, node affinity terms and tolerations */
/* With DSI_PODSPEC_PLACEMENT: nothing else but nodeName and hostNetwork, for a DaemonSet whose decision
 * reads no more (NodeShouldRunDaemonPod, NewPod's tolerations); the rest keeps its zero value. */
#define DSI_PODSPEC_PLACEMENT_ONLY 2u

/* Read obj's member "spec" (a PodSpec). gates: DSI_GATE_* from lib/core/optparse.h. */
int dsi_podspec_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, unsigned flags, unsigned gates,
		     dsi_podspec *out);
void dsi_podspec_release(dsi_atoms *atoms, dsi_podspec *s);
int dsi_podspec_copy(dsi_atoms *atoms, const dsi_podspec *src, dsi_podspec *dst);
/* The same from table from into table to. */
int dsi_podspec_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_podspec *src, dsi_podspec *dst);

/* GetTargetNodeName (pkg/controller/daemon/util/daemonset_util.go) on a spec
 * JSON object: nodeName, else the single value of the first matchFields
 * metadata.name In requirement of the required node affinity. 0 and *out set,
 * or -1 when the pod names no node. */
int dsi_target_node_name(const json_t *spec, const char **out);

#endif
