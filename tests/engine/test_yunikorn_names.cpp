// YuniKorn's queue name check, written by hand, accepts exactly what the validator's regular
// expression ^[a-zA-Z0-9_:#/@-]{1,64}$ accepts: random names over the allowed characters, their
// neighbours in ASCII, dots, blanks and non-ASCII bytes, of every length around the bounds.
#include "profiles/yunikorn/placement_rules.h"
#include "test_registry.h"

#include <QtTest>
#include <random>
#include <regex>
#include <string>

using namespace gantry::engine::yunikorn;

class YuniKornNameTest : public QObject {
    Q_OBJECT

  private slots:
    void queueNameCheckMatchesTheRegex() {
        const std::regex re(R"(^[a-zA-Z0-9_:#/@-]{1,64}$)");
        // The twelve allowed characters first, then their ASCII neighbours and other bytes.
        std::string alphabet = "azAZ09_:#/@-`{[.. \t\n\x7f\x80\xff\xc3\xa9";
        alphabet += '\0';
        std::mt19937_64 rng(15);
        int accepted = 0;
        for (int i = 0; i < 100000; ++i) {
            const size_t length = rng() % 71;
            // Mostly allowed characters, so that long valid names occur too.
            const bool clean = rng() % 2 == 0;
            std::string name;
            for (size_t k = 0; k < length; ++k) {
                if (clean && rng() % 64 != 0)
                    name += alphabet[rng() % 12];
                else
                    name += char(rng() % 256);
            }
            if (i % 7 == 0 && !name.empty()) name[rng() % name.size()] = alphabet[rng() % alphabet.size()];
            const bool expected = std::regex_match(name, re);
            accepted += expected;
            QVERIFY2(validQueueName(name) == expected,
                     qPrintable(QString::fromLatin1(name.data(), int(name.size()))));
        }
        QVERIFY(accepted > 1000);
        for (const char* name : {"", "a", "root", "a.b", "@recovery@", "x y", "\xc3\xa9"})
            QCOMPARE(validQueueName(name), std::regex_match(std::string(name), re));
        QVERIFY(validQueueName(std::string(64, 'q')));
        QVERIFY(!validQueueName(std::string(65, 'q')));
    }
};

GANTRY_TEST(YuniKornNameTest)
#include "test_yunikorn_names.moc"
