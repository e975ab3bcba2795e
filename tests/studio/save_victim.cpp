// A studio session that does nothing but save, for test_save_interruption: it saves the project to
// PROJECT and autosaves it into AUTOSAVE_DIR over and over, each time as a new generation, and says
// on stdout after each which generation is on disk. The test kills it at random moments.
//
//   gantry-save-victim PROJECT AUTOSAVE_DIR [FSIZE_LIMIT_BYTES]
//
// With a size limit, files may grow no larger than that (RLIMIT_FSIZE, as a full disk would stop
// them), and SIGXFSZ is ignored so the write fails with EFBIG instead of killing the process.
#include "core/autosave.h"
#include "core/project_document.h"
#include "core/project_files.h"
#include "input_loader.h"

#include <QCoreApplication>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <sys/resource.h>

using namespace gantry;

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: gantry-save-victim PROJECT AUTOSAVE_DIR [FSIZE_LIMIT_BYTES]\n");
        return 1;
    }
    QCoreApplication app(argc, argv);
    const QString target = QString::fromLocal8Bit(argv[1]);
    Project project =
        loadInputs({std::string(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml"}).project;
    if (argc > 3) {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{};
        limit.rlim_cur = limit.rlim_max = rlim_t(std::stoull(argv[3]));
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    studio::ProjectDocument doc;
    studio::Autosaver autosaver(&doc, QString::fromLocal8Bit(argv[2]));
    // Each generation is larger than the one before, so a later save takes longer and a size limit is
    // eventually reached.
    for (int generation = 1; generation <= 100000; ++generation) {
        project.name = "generation " + std::to_string(generation);
        project.description = std::string(size_t(generation) * 4096, 'x');
        try {
            studio::saveProject(project, target);
            std::printf("saved %d\n", generation);
        } catch (const std::exception& e) {
            std::printf("save failed %d: %s\n", generation, e.what());
        }
        doc.replace(project, target, {}, true);
        std::printf(autosaver.saveNow() ? "autosaved %d\n" : "autosave failed %d\n", generation);
        std::fflush(stdout);
    }
    return 0;
}
