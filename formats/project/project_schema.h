#pragma once
// The .gantry project file's schema, written once and used by both the reader (project_reader.cpp)
// and the writer (project_writer.cpp): each model struct lists its fields as
// (key, member pointer). The writer emits every field that differs from a default-constructed struct;
// the reader sets exactly those back, so load -> save -> load is lossless by construction.
#include "model/cluster.h"
#include "model/project.h"

#include <map>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace gantry::project {

template <class T, class M> struct Field {
    const char* key;
    M T::*member;
    bool required = false;
};

template <class T, class M>
constexpr Field<T, M> field(const char* key, M T::*member, bool required = false) {
    return Field<T, M>{key, member, required};
}

// Schema<T>::fields() returns a tuple of Field<T, ...>. Types without a Schema are leaves (scalars,
// enums, resource lists, containers) or have their own form (SchedulerConf, WorkloadTemplate).
template <class T> struct Schema;

#define GANTRY_SCHEMA(Type, ...)                                                                             \
    template <> struct Schema<Type> {                                                                        \
        static constexpr auto fields() { return std::make_tuple(__VA_ARGS__); }                              \
    }

GANTRY_SCHEMA(SelectorRequirement, field("key", &SelectorRequirement::key, true),
              field("operator", &SelectorRequirement::op, true),
              field("values", &SelectorRequirement::values));
GANTRY_SCHEMA(LabelSelector, field("matchLabels", &LabelSelector::matchLabels),
              field("matchExpressions", &LabelSelector::matchExpressions));
GANTRY_SCHEMA(NodeSelectorTerm, field("matchExpressions", &NodeSelectorTerm::matchExpressions),
              field("matchFields", &NodeSelectorTerm::matchFields));
GANTRY_SCHEMA(PreferredSchedulingTerm, field("weight", &PreferredSchedulingTerm::weight),
              field("preference", &PreferredSchedulingTerm::preference));
GANTRY_SCHEMA(NodeAffinity, field("required", &NodeAffinity::required),
              field("preferred", &NodeAffinity::preferred));
GANTRY_SCHEMA(PodAffinityTerm, field("labelSelector", &PodAffinityTerm::labelSelector),
              field("namespaces", &PodAffinityTerm::namespaces),
              field("namespaceSelector", &PodAffinityTerm::namespaceSelector),
              field("topologyKey", &PodAffinityTerm::topologyKey));
GANTRY_SCHEMA(WeightedPodAffinityTerm, field("weight", &WeightedPodAffinityTerm::weight),
              field("term", &WeightedPodAffinityTerm::term));
GANTRY_SCHEMA(PodAffinity, field("required", &PodAffinity::required),
              field("preferred", &PodAffinity::preferred));
GANTRY_SCHEMA(Taint, field("key", &Taint::key, true), field("value", &Taint::value),
              field("effect", &Taint::effect, true));
GANTRY_SCHEMA(Toleration, field("key", &Toleration::key), field("exists", &Toleration::exists),
              field("value", &Toleration::value), field("effect", &Toleration::effect),
              field("tolerationSeconds", &Toleration::tolerationSeconds));
GANTRY_SCHEMA(TopologySpreadConstraint, field("maxSkew", &TopologySpreadConstraint::maxSkew),
              field("topologyKey", &TopologySpreadConstraint::topologyKey),
              field("doNotSchedule", &TopologySpreadConstraint::doNotSchedule),
              field("labelSelector", &TopologySpreadConstraint::labelSelector),
              field("minDomains", &TopologySpreadConstraint::minDomains),
              field("matchLabelKeys", &TopologySpreadConstraint::matchLabelKeys));

GANTRY_SCHEMA(MigSlices, field("profile", &MigSlices::profile, true), field("count", &MigSlices::count));
GANTRY_SCHEMA(GpuDevices, field("model", &GpuDevices::model), field("count", &GpuDevices::count),
              field("memory", &GpuDevices::memoryBytes), field("resource", &GpuDevices::resourceName),
              field("physical", &GpuDevices::physical), field("mig", &GpuDevices::mig),
              field("exposure", &GpuDevices::exposure));
GANTRY_SCHEMA(Node, field("name", &Node::name, true), field("pool", &Node::pool),
              field("labels", &Node::labels), field("annotations", &Node::annotations),
              field("capacity", &Node::capacity), field("allocatable", &Node::allocatable),
              field("taints", &Node::taints), field("unschedulable", &Node::unschedulable),
              field("ready", &Node::ready), field("gpus", &Node::gpus));
GANTRY_SCHEMA(Namespace, field("name", &Namespace::name, true), field("labels", &Namespace::labels),
              field("annotations", &Namespace::annotations));
GANTRY_SCHEMA(GpuRequest, field("count", &GpuRequest::count), field("milli", &GpuRequest::milliPerGpu),
              field("models", &GpuRequest::models));
GANTRY_SCHEMA(CreationCondition, field("kind", &CreationCondition::kind),
              field("name", &CreationCondition::name), field("topologyKey", &CreationCondition::topologyKey));
GANTRY_SCHEMA(PodResourceClaim, field("name", &PodResourceClaim::name, true),
              field("resourceClaimName", &PodResourceClaim::resourceClaimName),
              field("resourceClaimTemplateName", &PodResourceClaim::resourceClaimTemplateName),
              field("generatedClaimName", &PodResourceClaim::generatedClaimName));
GANTRY_SCHEMA(Pod, field("name", &Pod::name, true), field("namespace", &Pod::ns), field("uid", &Pod::uid),
              field("labels", &Pod::labels), field("annotations", &Pod::annotations),
              field("requests", &Pod::requests), field("gpu", &Pod::gpu),
              field("nodeSelector", &Pod::nodeSelector), field("nodeAffinity", &Pod::nodeAffinity),
              field("podAffinity", &Pod::podAffinity), field("podAntiAffinity", &Pod::podAntiAffinity),
              field("tolerations", &Pod::tolerations), field("topologySpread", &Pod::topologySpread),
              field("priority", &Pod::priority), field("priorityClassName", &Pod::priorityClassName),
              field("preemptionPolicy", &Pod::preemptionPolicy), field("schedulerName", &Pod::schedulerName),
              field("phase", &Pod::phase), field("nodeName", &Pod::nodeName),
              field("gpuIndices", &Pod::gpuIndices), field("group", &Pod::group), field("role", &Pod::role),
              field("preemptable", &Pod::preemptable), field("ownerKind", &Pod::ownerKind),
              field("ownerName", &Pod::ownerName), field("ownerUid", &Pod::ownerUid),
              field("creationTimestamp", &Pod::creationTimestamp), field("startTime", &Pod::startTime),
              field("nominatedNodeName", &Pod::nominatedNodeName), field("createdAfter", &Pod::createdAfter),
              field("schedulingGates", &Pod::schedulingGates), field("runSeconds", &Pod::runSeconds),
              field("resourceClaims", &Pod::resourceClaims));
GANTRY_SCHEMA(NetworkTopologyConstraint, field("mode", &NetworkTopologyConstraint::mode),
              field("highestTierAllowed", &NetworkTopologyConstraint::highestTierAllowed),
              field("highestTierName", &NetworkTopologyConstraint::highestTierName));
GANTRY_SCHEMA(TaskDependency, field("task", &TaskDependency::task, true),
              field("after", &TaskDependency::after), field("any", &TaskDependency::any));
GANTRY_SCHEMA(PodGroup, field("name", &PodGroup::name, true), field("namespace", &PodGroup::ns),
              field("queue", &PodGroup::queue), field("specQueue", &PodGroup::specQueue),
              field("minMember", &PodGroup::minMember), field("minTaskMember", &PodGroup::minTaskMember),
              field("minResources", &PodGroup::minResources),
              field("priorityClassName", &PodGroup::priorityClassName), field("phase", &PodGroup::phase),
              field("networkTopology", &PodGroup::networkTopology), field("dependsOn", &PodGroup::dependsOn),
              field("origin", &PodGroup::origin), field("labels", &PodGroup::labels),
              field("annotations", &PodGroup::annotations),
              field("arrivalSeconds", &PodGroup::arrivalSeconds),
              field("durationSeconds", &PodGroup::durationSeconds),
              field("checkpointSeconds", &PodGroup::checkpointSeconds),
              field("creationTimestamp", &PodGroup::creationTimestamp));

GANTRY_SCHEMA(ResourceQuota, field("resource", &ResourceQuota::resource, true),
              field("nominal", &ResourceQuota::nominal),
              field("borrowingLimit", &ResourceQuota::borrowingLimit),
              field("lendingLimit", &ResourceQuota::lendingLimit));
GANTRY_SCHEMA(FlavorQuotas, field("flavor", &FlavorQuotas::flavor, true),
              field("resources", &FlavorQuotas::resources));
GANTRY_SCHEMA(ResourceGroup, field("coveredResources", &ResourceGroup::coveredResources),
              field("flavors", &ResourceGroup::flavors));
GANTRY_SCHEMA(KueuePreemption, field("withinClusterQueue", &KueuePreemption::withinClusterQueue),
              field("reclaimWithinCohort", &KueuePreemption::reclaimWithinCohort),
              field("borrowWithinCohort", &KueuePreemption::borrowWithinCohort),
              field("borrowMaxPriorityThreshold", &KueuePreemption::borrowMaxPriorityThreshold));
GANTRY_SCHEMA(QueueLimit, field("description", &QueueLimit::description), field("users", &QueueLimit::users),
              field("groups", &QueueLimit::groups), field("maxResources", &QueueLimit::maxResources),
              field("maxApplications", &QueueLimit::maxApplications));
GANTRY_SCHEMA(ChildTemplate, field("maxApplications", &ChildTemplate::maxApplications),
              field("properties", &ChildTemplate::properties),
              field("guaranteed", &ChildTemplate::guaranteed), field("max", &ChildTemplate::max));
GANTRY_SCHEMA(NodeGroupAffinity, field("required", &NodeGroupAffinity::required),
              field("preferred", &NodeGroupAffinity::preferred),
              field("antiRequired", &NodeGroupAffinity::antiRequired),
              field("antiPreferred", &NodeGroupAffinity::antiPreferred));
GANTRY_SCHEMA(Queue, field("name", &Queue::name, true), field("parent", &Queue::parent),
              field("kind", &Queue::kind), field("weight", &Queue::weight),
              field("priority", &Queue::priority), field("state", &Queue::state),
              field("guarantee", &Queue::guarantee), field("deserved", &Queue::deserved),
              field("capability", &Queue::capability), field("reclaimable", &Queue::reclaimable),
              field("dequeueStrategy", &Queue::dequeueStrategy),
              field("nodeGroupAffinity", &Queue::nodeGroupAffinity),
              field("resourceGroups", &Queue::resourceGroups), field("preemption", &Queue::preemption),
              field("fairSharingWeight", &Queue::fairSharingWeight),
              field("queueingStrategy", &Queue::queueingStrategy),
              field("namespaceSelector", &Queue::namespaceSelector), field("stopPolicy", &Queue::stopPolicy),
              field("whenCanBorrow", &Queue::whenCanBorrow), field("whenCanPreempt", &Queue::whenCanPreempt),
              field("admissionMode", &Queue::admissionMode), field("guaranteed", &Queue::guaranteed),
              field("max", &Queue::max), field("maxApplications", &Queue::maxApplications),
              field("properties", &Queue::properties), field("submitAcl", &Queue::submitAcl),
              field("adminAcl", &Queue::adminAcl), field("parentFlag", &Queue::parentFlag),
              field("limits", &Queue::limits), field("childTemplate", &Queue::childTemplate),
              field("labels", &Queue::labels), field("annotations", &Queue::annotations));
GANTRY_SCHEMA(LocalQueue, field("name", &LocalQueue::name, true), field("namespace", &LocalQueue::ns),
              field("clusterQueue", &LocalQueue::clusterQueue, true),
              field("fairSharingWeight", &LocalQueue::fairSharingWeight),
              field("stopPolicy", &LocalQueue::stopPolicy), field("consumed", &LocalQueue::consumed));
GANTRY_SCHEMA(ResourceFlavor, field("name", &ResourceFlavor::name, true),
              field("nodeLabels", &ResourceFlavor::nodeLabels),
              field("nodeTaints", &ResourceFlavor::nodeTaints),
              field("tolerations", &ResourceFlavor::tolerations),
              field("topologyName", &ResourceFlavor::topologyName));
GANTRY_SCHEMA(PriorityClass, field("name", &PriorityClass::name, true), field("value", &PriorityClass::value),
              field("globalDefault", &PriorityClass::globalDefault),
              field("preemptionPolicy", &PriorityClass::preemptionPolicy),
              field("description", &PriorityClass::description), field("workload", &PriorityClass::workload));
GANTRY_SCHEMA(TopologyLevel, field("name", &TopologyLevel::name, true),
              field("nodeLabel", &TopologyLevel::nodeLabel, true));
GANTRY_SCHEMA(HyperNodeMember, field("type", &HyperNodeMember::type), field("match", &HyperNodeMember::match),
              field("value", &HyperNodeMember::value), field("selector", &HyperNodeMember::selector));
GANTRY_SCHEMA(HyperNode, field("name", &HyperNode::name, true), field("tier", &HyperNode::tier),
              field("tierName", &HyperNode::tierName), field("members", &HyperNode::members));
GANTRY_SCHEMA(KueueTopology, field("name", &KueueTopology::name, true),
              field("levels", &KueueTopology::levels));
GANTRY_SCHEMA(PlacementRule, field("name", &PlacementRule::name, true),
              field("create", &PlacementRule::create), field("value", &PlacementRule::value),
              field("filterType", &PlacementRule::filterType),
              field("filterUsers", &PlacementRule::filterUsers),
              field("filterGroups", &PlacementRule::filterGroups), field("parent", &PlacementRule::parent));
GANTRY_SCHEMA(YuniKornPartition, field("name", &YuniKornPartition::name),
              field("placementRules", &YuniKornPartition::placementRules),
              field("nodeSortPolicy", &YuniKornPartition::nodeSortPolicy),
              field("nodeSortWeights", &YuniKornPartition::nodeSortWeights),
              field("preemptionEnabled", &YuniKornPartition::preemptionEnabled),
              field("quotaPreemptionEnabled", &YuniKornPartition::quotaPreemptionEnabled),
              field("limits", &YuniKornPartition::limits), field("settings", &YuniKornPartition::settings),
              field("unmodelled", &YuniKornPartition::unmodelled));
GANTRY_SCHEMA(PodDisruptionBudget, field("name", &PodDisruptionBudget::name, true),
              field("namespace", &PodDisruptionBudget::ns), field("selector", &PodDisruptionBudget::selector),
              field("minAvailable", &PodDisruptionBudget::minAvailable),
              field("maxUnavailable", &PodDisruptionBudget::maxUnavailable),
              field("disruptionsAllowed", &PodDisruptionBudget::disruptionsAllowed),
              field("disruptedPods", &PodDisruptionBudget::disruptedPods));
GANTRY_SCHEMA(KueueConfig::AdmissionFairSharing,
              field("usageHalfLifeSeconds", &KueueConfig::AdmissionFairSharing::usageHalfLifeSeconds),
              field("usageSamplingIntervalSeconds",
                    &KueueConfig::AdmissionFairSharing::usageSamplingIntervalSeconds),
              field("resourceWeights", &KueueConfig::AdmissionFairSharing::resourceWeights));
GANTRY_SCHEMA(KueueConfig::Transformation, field("input", &KueueConfig::Transformation::input, true),
              field("replace", &KueueConfig::Transformation::replace),
              field("multiplyBy", &KueueConfig::Transformation::multiplyBy),
              field("outputs", &KueueConfig::Transformation::outputs));
GANTRY_SCHEMA(KueueConfig::DeviceClassMapping::Source,
              field("counter", &KueueConfig::DeviceClassMapping::Source::counter, true),
              field("name", &KueueConfig::DeviceClassMapping::Source::name, true),
              field("driver", &KueueConfig::DeviceClassMapping::Source::driver, true),
              field("deviceSelector", &KueueConfig::DeviceClassMapping::Source::deviceSelector, true));
GANTRY_SCHEMA(KueueConfig::DeviceClassMapping, field("name", &KueueConfig::DeviceClassMapping::name, true),
              field("deviceClassNames", &KueueConfig::DeviceClassMapping::deviceClassNames),
              field("sources", &KueueConfig::DeviceClassMapping::sources));
GANTRY_SCHEMA(KueueConfig, field("fairSharing", &KueueConfig::fairSharing),
              field("admissionFairSharing", &KueueConfig::admissionFairSharing),
              field("preemptionStrategies", &KueueConfig::preemptionStrategies),
              field("waitForPodsReady", &KueueConfig::waitForPodsReady),
              field("podsReadyTimeoutSeconds", &KueueConfig::podsReadyTimeoutSeconds),
              field("blockAdmission", &KueueConfig::blockAdmission),
              field("requeuingTimestamp", &KueueConfig::requeuingTimestamp),
              field("backoffLimitCount", &KueueConfig::backoffLimitCount),
              field("backoffBaseSeconds", &KueueConfig::backoffBaseSeconds),
              field("backoffMaxSeconds", &KueueConfig::backoffMaxSeconds),
              field("featureGates", &KueueConfig::featureGates),
              field("frameworks", &KueueConfig::frameworks),
              field("manageJobsWithoutQueueName", &KueueConfig::manageJobsWithoutQueueName),
              field("managedJobsNamespaceSelector", &KueueConfig::managedJobsNamespaceSelector),
              field("namespace", &KueueConfig::kueueNamespace),
              field("transformations", &KueueConfig::transformations),
              field("excludeResourcePrefixes", &KueueConfig::excludeResourcePrefixes),
              field("deviceClassMappings", &KueueConfig::deviceClassMappings),
              field("document", &KueueConfig::document));
GANTRY_SCHEMA(FairshareStateMap, field("name", &FairshareStateMap::name, true),
              field("namespace", &FairshareStateMap::ns), field("stateJson", &FairshareStateMap::stateJson));
GANTRY_SCHEMA(DeviceAttribute, field("type", &DeviceAttribute::type, true),
              field("text", &DeviceAttribute::text), field("number", &DeviceAttribute::number),
              field("flag", &DeviceAttribute::flag));
GANTRY_SCHEMA(CounterConsumption, field("counterSet", &CounterConsumption::counterSet, true),
              field("counters", &CounterConsumption::counters));
GANTRY_SCHEMA(CounterSet, field("name", &CounterSet::name, true), field("counters", &CounterSet::counters));
GANTRY_SCHEMA(Device, field("name", &Device::name, true), field("attributes", &Device::attributes),
              field("capacity", &Device::capacity), field("consumesCounters", &Device::consumesCounters),
              field("allowMultipleAllocations", &Device::allowMultipleAllocations));
GANTRY_SCHEMA(ResourceSlice, field("name", &ResourceSlice::name, true),
              field("driver", &ResourceSlice::driver), field("pool", &ResourceSlice::pool),
              field("poolGeneration", &ResourceSlice::poolGeneration),
              field("resourceSliceCount", &ResourceSlice::resourceSliceCount),
              field("nodeName", &ResourceSlice::nodeName), field("allNodes", &ResourceSlice::allNodes),
              field("nodeSelector", &ResourceSlice::nodeSelector), field("devices", &ResourceSlice::devices),
              field("sharedCounters", &ResourceSlice::sharedCounters));
GANTRY_SCHEMA(DeviceClass, field("name", &DeviceClass::name, true),
              field("selectors", &DeviceClass::selectors),
              field("extendedResourceName", &DeviceClass::extendedResourceName));
GANTRY_SCHEMA(DeviceSubRequest, field("name", &DeviceSubRequest::name, true),
              field("deviceClassName", &DeviceSubRequest::deviceClassName),
              field("selectors", &DeviceSubRequest::selectors),
              field("allocateAll", &DeviceSubRequest::allocateAll), field("count", &DeviceSubRequest::count),
              field("capacity", &DeviceSubRequest::capacity));
GANTRY_SCHEMA(DeviceRequest, field("name", &DeviceRequest::name, true),
              field("prioritized", &DeviceRequest::prioritized), field("choices", &DeviceRequest::choices));
GANTRY_SCHEMA(DeviceConstraint, field("requests", &DeviceConstraint::requests),
              field("matchAttribute", &DeviceConstraint::matchAttribute));
GANTRY_SCHEMA(DeviceClaimSpec, field("requests", &DeviceClaimSpec::requests),
              field("constraints", &DeviceClaimSpec::constraints));
GANTRY_SCHEMA(AllocatedDevice, field("request", &AllocatedDevice::request),
              field("driver", &AllocatedDevice::driver), field("pool", &AllocatedDevice::pool),
              field("device", &AllocatedDevice::device),
              field("consumedCapacity", &AllocatedDevice::consumedCapacity));
GANTRY_SCHEMA(ClaimAllocation, field("devices", &ClaimAllocation::devices),
              field("nodeSelector", &ClaimAllocation::nodeSelector));
GANTRY_SCHEMA(ResourceClaim, field("name", &ResourceClaim::name, true),
              field("namespace", &ResourceClaim::ns), field("spec", &ResourceClaim::spec),
              field("allocation", &ResourceClaim::allocation),
              field("reservedFor", &ResourceClaim::reservedFor));
GANTRY_SCHEMA(ResourceClaimTemplate, field("name", &ResourceClaimTemplate::name, true),
              field("namespace", &ResourceClaimTemplate::ns), field("spec", &ResourceClaimTemplate::spec));
GANTRY_SCHEMA(DraObjects, field("deviceClasses", &DraObjects::deviceClasses),
              field("resourceSlices", &DraObjects::resourceSlices),
              field("resourceClaims", &DraObjects::resourceClaims),
              field("resourceClaimTemplates", &DraObjects::resourceClaimTemplates));
GANTRY_SCHEMA(Cluster, field("name", &Cluster::name), field("topologyLevels", &Cluster::topologyLevels),
              field("nodes", &Cluster::nodes), field("namespaces", &Cluster::namespaces),
              field("priorityClasses", &Cluster::priorityClasses), field("queues", &Cluster::queues),
              field("localQueues", &Cluster::localQueues),
              field("resourceFlavors", &Cluster::resourceFlavors), field("hyperNodes", &Cluster::hyperNodes),
              field("kueueTopologies", &Cluster::kueueTopologies), field("yunikorn", &Cluster::yunikorn),
              field("volcanoConf", &Cluster::volcanoConf), field("kueueConf", &Cluster::kueueConf),
              field("fairshareStates", &Cluster::fairshareStates), field("podGroups", &Cluster::podGroups),
              field("pods", &Cluster::pods), field("disruptionBudgets", &Cluster::disruptionBudgets),
              field("dra", &Cluster::dra));
GANTRY_SCHEMA(KubeSchedulerProfile, field("schedulerName", &KubeSchedulerProfile::schedulerName),
              field("strategy", &KubeSchedulerProfile::strategy),
              field("resourceWeights", &KubeSchedulerProfile::resourceWeights),
              field("shape", &KubeSchedulerProfile::shape),
              field("pluginWeights", &KubeSchedulerProfile::pluginWeights),
              field("disabledPlugins", &KubeSchedulerProfile::disabledPlugins),
              field("preemption", &KubeSchedulerProfile::preemption),
              field("minCandidateNodesPercentage", &KubeSchedulerProfile::minCandidateNodesPercentage),
              field("minCandidateNodesAbsolute", &KubeSchedulerProfile::minCandidateNodesAbsolute),
              field("percentageOfNodesToScore", &KubeSchedulerProfile::percentageOfNodesToScore));
GANTRY_SCHEMA(SimulationSettings, field("cycleSeconds", &SimulationSettings::cycleSeconds),
              field("horizonSeconds", &SimulationSettings::horizonSeconds),
              field("seed", &SimulationSettings::seed), field("profiles", &SimulationSettings::profiles));
GANTRY_SCHEMA(Project, field("name", &Project::name), field("description", &Project::description),
              field("target", &Project::target), field("simulation", &Project::simulation),
              field("volcano", &Project::volcano), field("kueue", &Project::kueue),
              field("contrast", &Project::contrast), field("cluster", &Project::cluster),
              field("workloads", &Project::workloads));

#undef GANTRY_SCHEMA

// What a field's type is, for the reader and the writer.
template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type {};
template <class T> struct IsOptional : std::false_type {};
template <class T> struct IsOptional<std::optional<T>> : std::true_type {};
template <class T> struct IsMap : std::false_type {};
template <class V> struct IsMap<std::map<std::string, V>> : std::true_type {};
template <class T> struct IsPair : std::false_type {};
template <class A, class B> struct IsPair<std::pair<A, B>> : std::true_type {};

// Enum spellings in the file (Kubernetes' own where there is one).
const char* enumText(Queue::Kind v);
const char* enumText(QueueState v);
const char* enumText(PodPhase v);
const char* enumText(PodGroupPhase v);
const char* enumText(SelectorOp v);
const char* enumText(TaintEffect v);
const char* enumText(NetworkTopologyConstraint::Mode v);
const char* enumText(HyperNodeMember::Type v);
const char* enumText(HyperNodeMember::Match v);
const char* enumText(TargetScheduler v);
const char* enumText(KubeSchedulerProfile::Strategy v);
const char* enumText(CreationCondition::Kind v);
bool enumFromText(const std::string& s, Queue::Kind& v);
bool enumFromText(const std::string& s, QueueState& v);
bool enumFromText(const std::string& s, PodPhase& v);
bool enumFromText(const std::string& s, PodGroupPhase& v);
bool enumFromText(const std::string& s, SelectorOp& v);
bool enumFromText(const std::string& s, TaintEffect& v);
bool enumFromText(const std::string& s, NetworkTopologyConstraint::Mode& v);
bool enumFromText(const std::string& s, HyperNodeMember::Type& v);
bool enumFromText(const std::string& s, HyperNodeMember::Match& v);
bool enumFromText(const std::string& s, TargetScheduler& v);
bool enumFromText(const std::string& s, KubeSchedulerProfile::Strategy& v);
bool enumFromText(const std::string& s, CreationCondition::Kind& v);

inline constexpr const char* kProjectKind = "Project";

} // namespace gantry::project
