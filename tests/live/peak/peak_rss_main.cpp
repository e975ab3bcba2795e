// gantry-peak-rss OUT COMMAND ARGS...: runs COMMAND, writes its peak resident memory in KiB to OUT and
// exits as it did. A small process of its own forks the command, so the figure is the command's alone:
// a child forked straight from a large test process would count the parent's pages until its exec.
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: gantry-peak-rss OUT COMMAND ARGS...\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        std::perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || wait4(pid, &status, 0, &usage) < 0) return 2;
    if (FILE* out = std::fopen(argv[1], "w")) {
        std::fprintf(out, "%ld\n", usage.ru_maxrss);
        std::fclose(out);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
