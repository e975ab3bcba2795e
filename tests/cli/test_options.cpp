// The subcommands' option parser on its own: each kind of value, the number and duration grammar,
// the errors it reports in the same words for every command, and the help it makes from a table.
#include "options.h"
#include "options_help.h"
#include "test_registry.h"
#include "value_grammar.h"

#include <QtTest>

using namespace gantry::cli;

namespace {

// A table with one option of every kind, as a command would declare it.
struct Sample {
    bool json = false;
    std::string out, profile = "volcano", target;
    std::vector<std::string> snapshots, files;
    std::optional<int64_t> seed;
    std::optional<uint64_t> count;
    std::optional<double> inflation, cycle, horizon;

    OptionTable table(bool withFiles = true) {
        OptionTable t{
            .command = "sample",
            .about = "Does what a sample does.",
            .options =
                {
                    {.names = {"--snapshot"},
                     .metavar = "FILE",
                     .value = Texts{&snapshots},
                     .help = "input; repeatable",
                     .required = true},
                    {.names = {"--out", "-o"}, .metavar = "DIR", .value = Text{&out}, .help = "where to"},
                    {.names = {"--profile"}, .metavar = "NAME", .value = Text{&profile}, .help = "which"},
                    {.names = {"--json"}, .value = Switch{&json}, .help = "print JSON"},
                    {.section = "Numbers:",
                     .names = {"--seed"},
                     .metavar = "N",
                     .value = Int{&seed},
                     .help = "a seed"},
                    {.names = {"--count"}, .metavar = "N", .value = Uint{&count}, .help = "how many"},
                    {.names = {"--inflation"},
                     .metavar = "R",
                     .value = Float{&inflation},
                     .help = "a share\nof something",
                     .sign = Sign::Positive,
                     .max = 10},
                    {.names = {"--cycle"},
                     .metavar = "D",
                     .value = Duration{&cycle},
                     .help = "a period",
                     .sign = Sign::Positive},
                    {.names = {"--horizon"}, .metavar = "D", .value = Duration{&horizon}, .help = "an end"},
                    {.names = {"--target"},
                     .value = Choice{&target, {"volcano", "yunikorn", "kueue"}},
                     .help = "the scheduler"},
                },
            .epilog = "Exit codes: 0 ok."};
        if (withFiles) t.options.push_back({.metavar = "FILE", .value = Texts{&files}, .help = "more input"});
        return t;
    }
};

ParseOutcome parse(Sample& s, const Args& args, bool withFiles = true) {
    return parseArguments(s.table(withFiles), args);
}

// The message of a usage error, or "" when the arguments parsed.
QString error(const Args& args, bool withFiles = true) {
    Sample s;
    ParseOutcome o = parse(s, args, withFiles);
    return o.kind == ParseOutcome::Kind::Error ? QString::fromStdString(o.message) : QString();
}

} // namespace

class OptionsTest : public QObject {
    Q_OBJECT
  private slots:
    void switchesTextsAndDefaults() {
        Sample s;
        ParseOutcome o = parse(s, {"--snapshot", "a.yaml", "--json", "--out", "x", "-o", "y"});
        QVERIFY(o.kind == ParseOutcome::Kind::Run);
        QVERIFY(s.json);
        QCOMPARE(s.out, std::string("y")); // the last one wins
        QCOMPARE(s.profile, std::string("volcano"));
        QVERIFY(!s.seed && !s.count && !s.inflation && !s.cycle && !s.horizon);
        QVERIFY(s.target.empty());
    }

    void repeatableAndPositionals() {
        Sample s;
        ParseOutcome o =
            parse(s, {"one", "--snapshot", "a", "two", "--snapshot", "b", "-", "--snapshot", "c"});
        QVERIFY(o.kind == ParseOutcome::Kind::Run);
        QCOMPARE(s.snapshots, (std::vector<std::string>{"a", "b", "c"}));
        // "-" is an argument (standard input), not an option.
        QCOMPARE(s.files, (std::vector<std::string>{"one", "two", "-"}));
    }

    void valueIsTheNextArgumentWhateverItLooksLike() {
        Sample s;
        ParseOutcome o = parse(s, {"--snapshot", "--help", "--out", "--json", "--horizon", " 5 "});
        QVERIFY(o.kind == ParseOutcome::Kind::Run);
        QCOMPARE(s.snapshots, std::vector<std::string>{"--help"});
        QCOMPARE(s.out, std::string("--json"));
        QVERIFY(!s.json);
        QCOMPARE(*s.horizon, 5.0);
    }

    void wholeNumbers() {
        Sample s;
        QVERIFY(parse(s, {"--snapshot", "a", "--seed", "-3", "--count", "0"}).kind ==
                ParseOutcome::Kind::Run);
        QCOMPARE(*s.seed, int64_t(-3));
        QCOMPARE(*s.count, uint64_t(0));
        QVERIFY(parse(s, {"--snapshot", "a", "--seed", "+7"}).kind == ParseOutcome::Kind::Run);
        QCOMPARE(*s.seed, int64_t(7));
        for (const char* bad : {"4.5", "x", "", " 4", "--5", "+-5", "0x10", "1e3", "99999999999999999999"})
            QCOMPARE(error({"--snapshot", "a", "--seed", bad}),
                     QString("--seed: '%1' is not a whole number").arg(bad));
        QCOMPARE(error({"--snapshot", "a", "--count", "-1"}),
                 QString("--count: '-1' is not a non-negative whole number"));
        QCOMPARE(parseWholeNumber("9223372036854775807"), std::optional<int64_t>(INT64_MAX));
    }

    void decimalNumbers() {
        Sample s;
        for (auto [text, value] : {std::pair{"1.3", 1.3}, {".5", 0.5}, {"2e0", 2.0}, {"10", 10.0}}) {
            QVERIFY(parse(s, {"--snapshot", "a", "--inflation", text}).kind == ParseOutcome::Kind::Run);
            QCOMPARE(*s.inflation, value);
        }
        for (const char* bad : {"0", "-1", "10.5", "inf", "nan", "0x1p0", "1,5", "1.3x", ""})
            QCOMPARE(error({"--snapshot", "a", "--inflation", bad}),
                     QString("--inflation: '%1' is not a number in (0, 10]").arg(bad));
    }

    void durations() {
        Sample s;
        for (auto [text, value] : {std::pair{"90s", 90.0},
                                   {"1h30m", 5400.0},
                                   {"2.5", 2.5},
                                   {"250ms", 0.25},
                                   {"1.5h", 5400.0},
                                   {"30m ", 1800.0}}) {
            QVERIFY(parse(s, {"--snapshot", "a", "--cycle", text}).kind == ParseOutcome::Kind::Run);
            QCOMPARE(*s.cycle, value);
        }
        QVERIFY(parse(s, {"--snapshot", "a", "--horizon", "0"}).kind == ParseOutcome::Kind::Run);
        QCOMPARE(*s.horizon, 0.0);
        for (const char* bad : {"0", "0s", "-1s", "-5", "5 hours", "1d", "h", ""})
            QCOMPARE(error({"--snapshot", "a", "--cycle", bad}),
                     QString("--cycle: '%1' is not a positive duration (e.g. 1s, 30m, 2h)").arg(bad));
        QCOMPARE(error({"--snapshot", "a", "--horizon", "-1m"}),
                 QString("--horizon: '-1m' is not a duration (e.g. 1s, 30m, 2h)"));
    }

    void choices() {
        Sample s;
        QVERIFY(parse(s, {"--snapshot", "a", "--target", "kueue"}).kind == ParseOutcome::Kind::Run);
        QCOMPARE(s.target, std::string("kueue"));
        QCOMPARE(error({"--snapshot", "a", "--target", "Kueue"}),
                 QString("--target: 'Kueue' is not one of volcano, yunikorn, kueue"));
    }

    void missingValues() {
        QCOMPARE(error({"--snapshot", "a", "--cycle"}),
                 QString("--cycle needs a positive duration (e.g. 1s, 30m, 2h)"));
        QCOMPARE(error({"--snapshot", "a", "-o"}), QString("-o needs a value"));
        QCOMPARE(error({"--snapshot"}), QString("--snapshot needs a value"));
        QCOMPARE(error({"--snapshot", "a", "--seed"}), QString("--seed needs a whole number"));
        QCOMPARE(error({"--snapshot", "a", "--target"}),
                 QString("--target needs one of volcano, yunikorn, kueue"));
    }

    void unknownOptionsAndArguments() {
        QCOMPARE(error({"--snapshot", "a", "--frobnicate"}), QString("unknown option '--frobnicate'"));
        QCOMPARE(error({"-x", "--snapshot", "a"}), QString("unknown option '-x'"));
        QCOMPARE(error({"--snapshot", "a", "stray"}, false), QString("unexpected argument 'stray'"));
        // The first problem in argument order is the one reported.
        QCOMPARE(error({"--seed", "x", "--frobnicate"}), QString("--seed: 'x' is not a whole number"));
    }

    void requiredOptions() {
        QCOMPARE(error({"--json"}), QString("--snapshot FILE is required"));
        std::string a, b, c;
        std::optional<int64_t> n;
        std::vector<std::string> files;
        OptionTable t{.command = "t",
                      .options = {{.names = {"--a"}, .metavar = "A", .value = Text{&a}, .required = true},
                                  {.names = {"--b"}, .value = Choice{&b, {"x", "y"}}, .required = true},
                                  {.names = {"--n"}, .metavar = "N", .value = Int{&n}, .required = true},
                                  {.names = {"--c"}, .metavar = "C", .value = Text{&c}},
                                  {.metavar = "FILE", .value = Texts{&files}, .required = true}}};
        QCOMPARE(QString::fromStdString(parseArguments(t, {}).message),
                 QString("--a A, --b x|y and --n N are required"));
        // An empty value is no value.
        QCOMPARE(QString::fromStdString(parseArguments(t, {"--b", "x", "--a", ""}).message),
                 QString("--a A and --n N are required"));
        QCOMPARE(QString::fromStdString(parseArguments(t, {"--b", "x", "--a", "1", "--n", "2"}).message),
                 QString("no FILE given"));
        QVERIFY(parseArguments(t, {"--b", "x", "--a", "1", "--n", "2", "f"}).kind == ParseOutcome::Kind::Run);
    }

    void help() {
        Sample s;
        // Help wins over what is missing, not over an error met before it.
        QVERIFY(parse(s, {"--help"}).kind == ParseOutcome::Kind::Help);
        QVERIFY(parse(s, {"--json", "-h", "--frobnicate"}).kind == ParseOutcome::Kind::Help);
        QVERIFY(parse(s, {"--frobnicate", "--help"}).kind == ParseOutcome::Kind::Error);
    }

    void helpTextFromTheTable() {
        Sample s;
        const OptionTable t = s.table();
        QCOMPARE(
            QString::fromStdString(synopsis(t)),
            QString("--snapshot FILE... [--out DIR] [--profile NAME] [--json] [--seed N] [--count N] "
                    "[--inflation R] [--cycle D] [--horizon D] [--target volcano|yunikorn|kueue] [FILE...]"));
        const QString text = QString::fromStdString(helpText(t));
        const QStringList lines = text.split('\n');
        // The usage line wraps under its first word, never wider than 100 columns.
        QCOMPARE(lines[0],
                 QString("Usage: gantry sample --snapshot FILE... [--out DIR] [--profile NAME] [--json] "
                         "[--seed N] [--count N]"));
        QCOMPARE(lines[1], QString("                     [--inflation R] [--cycle D] [--horizon D] "
                                   "[--target volcano|yunikorn|kueue]"));
        QCOMPARE(lines[2], QString("                     [FILE...]"));
        for (const auto& l : lines) QVERIFY2(l.size() <= 100, qPrintable(l));
        QVERIFY(text.contains("\nDoes what a sample does.\n\nOptions:\n  --snapshot FILE "));
        QVERIFY(text.contains(QRegularExpression(R"(\n  --out, -o DIR +where to\n)")));
        QVERIFY(
            text.contains(QRegularExpression(R"(\n  --json +print JSON\n\nNumbers:\n  --seed N +a seed\n)")));
        // Help lines after the first line up under it.
        const int row = int(lines.indexOf(QRegularExpression("^  --inflation R +a share$")));
        QVERIFY(row > 0);
        QCOMPARE(lines[row + 1].trimmed(), QString("of something"));
        QCOMPARE(lines[row + 1].indexOf("of"), lines[row].indexOf("a share"));
        QVERIFY(text.contains(QRegularExpression(R"(\n  FILE\.\.\. +more input\n)")));
        QVERIFY(text.endsWith("\n\nExit codes: 0 ok.\n"));
    }

    void givenSynopsisIsKept() {
        std::vector<std::string> inputs;
        OptionTable t{.command = "simulate",
                      .synopsis = "INPUT... | --nodes N.csv --pods P.csv",
                      .options = {{.metavar = "INPUT", .value = Texts{&inputs}}}};
        QVERIFY(helpText(t).starts_with("Usage: gantry simulate INPUT... | --nodes N.csv --pods P.csv\n"));
    }
};

GANTRY_TEST(OptionsTest)
#include "test_options.moc"
