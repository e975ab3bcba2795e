// The meaning of a volcano-scheduler.conf (bare, or in its ConfigMap): the engine's
// checkSchedulerConf on the configuration as foundation's reader builds it, so `gantry validate`
// and `gantry cycle` refuse the same configurations. Structure was checked by the schema.
#include "input_error.h"
#include "profiles/volcano/volcano_profile.h"
#include "validation/manifest_set.h"
#include "volcano/scheduler_conf_reader.h"

#include <algorithm>

namespace gantry {

void checkVolcanoSchedulerConfs(const std::vector<ManifestObject>& objects, ProblemSink& sink) {
    for (const auto& o : objects) {
        if (o.content != ManifestObject::Content::VolcanoSchedulerConf || o.source.text.empty()) continue;
        TextOrigin origin;
        origin.file = o.doc->file;
        origin.lineOffset = o.source.lineOffset;
        origin.columnOffset = o.source.columnOffset;
        if (o.source.pinned)
            origin.pinned =
                SourceRef{o.doc->file, o.source.pinned->first, o.source.pinned->second, o.doc->index};
        SchedulerConf conf;
        try {
            Diagnostics readerWarnings; // the schema reported unknown keys already
            conf = parseSchedulerConf(o.source.text, origin, &readerWarnings);
        } catch (const InputError& e) {
            // A structural problem the schema did not catch (the reader is the stricter of the two).
            Diagnostic d = e.diagnostic();
            bool reported =
                std::any_of(sink.diagnostics().begin(), sink.diagnostics().end(), [&](const Diagnostic& x) {
                    return x.severity == Severity::Error && x.where.file == d.where.file &&
                           x.where.line == d.where.line && x.where.column == d.where.column;
                });
            if (!reported) {
                d.message = describeProblem(o, FieldPath(), d.message);
                sink.addRaw(d);
            }
            continue;
        }
        for (auto d : checkSchedulerConf(conf)) {
            // Whether Gantry's simulator models a plugin says nothing about the file's validity.
            if (d.severity == Severity::Warning &&
                d.message.find("not modelled by Gantry") != std::string::npos)
                continue;
            d.where.document = o.doc->index;
            d.message = describeProblem(o, FieldPath(), d.message);
            sink.addRaw(d);
        }
    }
}

} // namespace gantry
