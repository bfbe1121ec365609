// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Runs the fuzz target's function over every file of a seed corpus and over seeded
// mutations of each (bytes flipped, cut, spliced), without libFuzzer: the same checks on
// every build, with gcc and the sanitizers of ./dev test. Usage: tst_fuzzreplay [DIRS],
// DIRS separated by ':' as in PATH (the seeds of one target may come from several folders: its own
// corpus, shipped files, test fixtures); each must hold at least one file.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <cstdio>
#include <random>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// Mutations of each seed; a target whose every input costs milliseconds (a recording is
// written, opened and analysed) takes fewer, and leaves the search to libFuzzer.
#ifndef HEADROOM_FUZZ_MUTATIONS
#define HEADROOM_FUZZ_MUTATIONS 200
#endif

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString dirs
        = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(HEADROOM_FUZZ_CORPUS_DIR);
    QStringList files;
    for (const auto allDirs = dirs.split(u':', Qt::SkipEmptyParts); const QString &dir : allDirs) {
        const QStringList names = QDir(dir).entryList(QDir::Files, QDir::Name);
        if (names.isEmpty()) {
            std::fprintf(stderr, "tst_fuzzreplay: no corpus files in %s\n", qPrintable(dir));
            return 1;
        }
        for (const QString &name : names)
            files.append(dir + u'/' + name);
    }
    std::mt19937 random(12345);
    int inputs = 0;
    for (const QString &path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return 1;
        const QByteArray seed = file.readAll();
        const auto run = [&](const QByteArray &input) {
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.constData()),
                                   size_t(input.size()));
            ++inputs;
        };
        run(seed);
        for (int m = 0; m < HEADROOM_FUZZ_MUTATIONS && !seed.isEmpty(); ++m) {
            QByteArray input = seed;
            std::uniform_int_distribution<qsizetype> at(0, input.size() - 1);
            switch (m % 4) {
            case 0: { // flip bytes, toward the characters the grammars care about
                static constexpr char Alphabet[] = "{}[]()\"\\=,:$# \n\t+-*/.eE0123456789\xff";
                for (int i = 0; i < 8; ++i)
                    input[at(random)] = Alphabet[random() % (sizeof(Alphabet) - 1)];
                break;
            }
            case 1: // cut it anywhere
                input.truncate(at(random));
                break;
            case 2: // splice two parts of itself
                input = input.left(at(random)) + input.mid(at(random));
                break;
            default: // random bytes into it
                for (int i = 0; i < 16; ++i)
                    input[at(random)] = char(random() & 0xff);
                break;
            }
            run(input);
        }
    }
    std::printf("tst_fuzzreplay: %d inputs from %d seeds, no failure\n", inputs, int(files.size()));
    return 0;
}
