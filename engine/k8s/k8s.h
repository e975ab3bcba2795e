#pragma once
// The kube-scheduler filter and score plugins, one file each as upstream has them
// (pkg/scheduler/framework/plugins/<name>): the kube-default profile runs them in kube-scheduler's
// order (k8s/kube_scheduler.h), Volcano's predicates and nodeorder plugins wrap them, YuniKorn's
// shim runs the filters. This header gathers them for the profiles that use several.
#include "k8s/balanced_allocation.h"
#include "k8s/inter_pod_affinity.h"
#include "k8s/node_affinity.h"
#include "k8s/node_info.h"
#include "k8s/node_resources_fit.h"
#include "k8s/node_unschedulable.h"
#include "k8s/normalize_score.h"
#include "k8s/pod_topology_spread.h"
#include "k8s/status.h"
#include "k8s/taint_toleration.h"
