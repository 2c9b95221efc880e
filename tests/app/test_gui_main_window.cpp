// The main window on the offscreen platform: opening the fixture models shows their spec and
// tensor table (checked against the GGUF reader), a bad file gives an error box carrying the
// loader's message while the previous model stays, drops open files, the newest request
// wins, settings and recent files are remembered, File > Open Sample Model lists and opens both
// sample models, and the Chinese translation switches live.
#include "common/testing.h"
#include "gui_testing.h"
#include "gguf/gguf.h"
#include "gui/help_window.h"
#include "gui/layer_view.h"
#include "gui/shown_chart.h"
#include "gui/language.h"
#include "gui/labs/lab_host.h"
#include "gui/main_window.h"
#include "gui/model_document.h"
#include "gui/recent_files.h"
#include "gui/sample_model.h"
#include "gui/session_controller.h"
#include "util/error.h"
#include "widgets/attention_heatmap.h"
#include "widgets/rope_view.h"
#include "widgets/spec_panel.h"
#include "widgets/tensor_table_model.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>
#include <QFile>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScreen>
#include <QtTest>

#include <qcustomplot.h>

using namespace lmscope;
using lmscope::gui::MainWindow;
using lmscope::gui::ModelDocument;

namespace {

QString fixture(const char* name) {
    return QString::fromStdString(testing::testdata_file(std::string("models/") + name));
}

// Opens `path` and waits until the window shows it.
bool open_and_wait(MainWindow& w, const QString& path) {
    QSignalSpy changed(w.document(), &ModelDocument::modelChanged);
    w.openFile(path);
    return changed.wait(60000);
}

QString spec_value(const MainWindow& w, const char* id) {
    QLabel* l = w.specPanel()->valueLabel(QString::fromLatin1(id));
    return l ? l->text() : QStringLiteral("<no label %1>").arg(QLatin1String(id));
}

// The error the loader itself gives for `path`.
QString loader_error(const QString& path) {
    try {
        gguf::File::open(QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestGuiMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location
        QApplication::setOrganizationName(QStringLiteral("lmscope-tests"));
        QApplication::setApplicationName(QStringLiteral("test_gui_main_window"));
        QSettings().clear();
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
    void init() { QSettings().clear(); }

    void opensFixture_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("heads");
        QTest::addColumn<QString>("kv_heads");
        QTest::addColumn<QString>("attention");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("recipe");  // lines the Recipe figure must hold
        const QString llama = QStringLiteral("RoPE on adjacent pairs, base 10,000\nSwiGLU feed-forward");
        QTest::newRow("fx-gqa") << fixture("fx-gqa.gguf") << "3" << "8" << "2" << "GQA 4:1" << "llama" << llama;
        QTest::newRow("fx-mha-untied") << fixture("fx-mha-untied.gguf") << "2" << "4" << "4" << "MHA" << "llama" << llama;
        QTest::newRow("fx-gqa-Q8_0") << fixture("fx-gqa-Q8_0.gguf") << "3" << "8" << "2" << "GQA 4:1" << "llama" << llama;
        QTest::newRow("fx-gqa-Q4_1") << fixture("fx-gqa-Q4_1.gguf") << "3" << "8" << "2" << "GQA 4:1" << "llama" << llama;
        QTest::newRow("fx-gqa-Q4_K_M") << fixture("fx-gqa-Q4_K_M.gguf") << "3" << "8" << "2" << "GQA 4:1" << "llama" << llama;
        QTest::newRow("SmolLM2 sample") << QString::fromStdString(testing::sample_model())
                                        << "30" << "9" << "3" << "GQA 3:1" << "llama" << "SwiGLU feed-forward";
        QTest::newRow("fx-gemma3") << fixture("fx-gemma3.gguf") << "4" << "4" << "1" << "MQA" << "gemma3"
                                   << "QK-norm (each q and k head normalized)\nNeoX RoPE (split halves), base 1,000,000\n"
                                      "window of 16 tokens on 3 of 4 layers (RoPE base 10,000)\nnorms after "
                                      "attention and FFN too\nGeGLU feed-forward (GELU, tanh)\nembeddings × √256";
        QTest::newRow("fx-qwen3") << fixture("fx-qwen3.gguf") << "3" << "8" << "4" << "GQA 2:1" << "qwen3"
                                  << "8 heads × 64 ≠ width 256\nQK-norm";
        QTest::newRow("fx-smollm3") << fixture("fx-smollm3.gguf") << "4" << "8" << "2" << "GQA 4:1" << "smollm3"
                                    << "no RoPE on 1 of 4 layers";
    }
    void opensFixture() {
        QFETCH(QString, path);
        QFETCH(QString, layers);
        QFETCH(QString, heads);
        QFETCH(QString, kv_heads);
        QFETCH(QString, attention);
        QFETCH(QString, arch);
        QFETCH(QString, recipe);
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "the model");
        const gguf::File gguf_file = gguf::File::open(path.toStdString());
        const auto& tensors = gguf_file.tensors();

        gui::Language language;
        MainWindow w(&language);
        w.show();
        QVERIFY(open_and_wait(w, path));

        // Tensor count, from the table model and from the spec panel.
        QCOMPARE(w.tensorModel()->rowCount(), int(tensors.size()));
        QCOMPARE(spec_value(w, "tensors"), QString::number(tensors.size()));
        for (int i = 0; i < int(tensors.size()); ++i) {
            const QModelIndex name = w.tensorModel()->index(i, widgets::TensorTableModel::Name);
            QCOMPARE(name.data().toString(), QString::fromStdString(tensors[size_t(i)].name));
            QCOMPARE(w.tensorModel()->index(i, widgets::TensorTableModel::Bytes)
                         .data(widgets::TensorTableModel::SortRole).toULongLong(),
                     quint64(tensors[size_t(i)].n_bytes));
        }
        QCOMPARE(spec_value(w, "layers"), layers);
        QCOMPARE(spec_value(w, "heads"), heads);
        QCOMPARE(spec_value(w, "kv_heads"), kv_heads);
        QCOMPARE(spec_value(w, "attention"), attention);
        QVERIFY2(spec_value(w, "recipe").contains(recipe), qPrintable(spec_value(w, "recipe")));
        QCOMPARE(spec_value(w, "runnable"), QStringLiteral("yes"));
        QCOMPARE(w.metadataModel()->rowCount(), int(gguf_file.metadata().size()));
        QVERIFY(w.windowTitle().contains(QFileInfo(path).fileName()));
        QCOMPARE(w.specPanel()->title(), QFileInfo(path).completeBaseName());  // not the raw general.name
        const std::string& raw_name = w.document()->model()->summary.hparams.name;  // general.name
        if (!raw_name.empty()) QVERIFY(w.specPanel()->subtitle().contains(QString::fromStdString(raw_name)));
        auto* arch_label = w.findChild<QLabel*>(QStringLiteral("statusArchitecture"));
        QVERIFY(arch_label);
        QCOMPARE(arch_label->text(), arch);

        // The file was parsed once: the labs have the model the window opened, and the
        // step-through session runs that same Model (a Model of its own would leave the labs'
        // the only holder but the window's record).
        const gui::LabModelPtr opened = w.document()->model()->runnable;
        QVERIFY(opened);
        QCOMPARE(w.labHost()->model().get(), opened.get());
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->hasEngine(), 60000);
        QVERIFY2(opened->model.use_count() > 1, "the session parsed the file again");
        QVERIFY(opened->tokenizer.use_count() > 1);
    }

    // Help > Lesson and Help > Glossary open inside the app: the lesson with its pictures, the
    // glossary in the language chosen now.
    void helpTopics() {
        gui::Language language;
        QVERIFY(language.apply(QStringLiteral("en")));
        MainWindow w(&language);
        w.show();
        w.lessonAction()->trigger();
        QTRY_VERIFY(w.helpWindow()->isVisible());
        QTextDocument* doc = w.helpWindow()->browser()->document();
        QVERIFY2(doc->toPlainText().startsWith(QStringLiteral("An 18-minute lesson")), qPrintable(doc->toPlainText().left(80)));
        // Every picture the lesson shows is in the app.
        QFile lesson(QStringLiteral(":/help/lesson.md"));
        QVERIFY(lesson.open(QIODevice::ReadOnly));
        const QString markdown = QString::fromUtf8(lesson.readAll());
        const QRegularExpression picture_link(QStringLiteral("\\]\\((screenshots/[^)]+\\.png)\\)"));
        int pictures = 0;
        for (const QRegularExpressionMatch& m : picture_link.globalMatch(markdown)) {
            const QImage picture = doc->resource(QTextDocument::ImageResource, QUrl(m.captured(1))).value<QImage>();
            QVERIFY2(!picture.isNull(), qPrintable(m.captured(1) + QStringLiteral(" is not in the app")));
            ++pictures;
        }
        QVERIFY(pictures >= 10);
        w.glossaryAction()->trigger();
        QTRY_VERIFY(w.helpWindow()->browser()->toPlainText().contains(QStringLiteral("KV cache.")));
        for (const char* term : {"Token.", "BPE", "GQA", "RoPE", "Prefill.", "Decode.", "Logit.", "Temperature.", "Top-k"})
            QVERIFY2(w.helpWindow()->browser()->toPlainText().contains(QLatin1String(term)), term);
        QCOMPARE(w.helpWindow()->windowTitle(), QStringLiteral("Glossary"));
        QVERIFY(language.apply(QStringLiteral("zh_CN")));
        QTRY_VERIFY(w.helpWindow()->browser()->toPlainText().contains(QStringLiteral("KV 缓存")));
        QCOMPARE(w.helpWindow()->windowTitle(), QStringLiteral("术语表"));
        QVERIFY(language.apply(QStringLiteral("en")));
        QTRY_VERIFY(w.helpWindow()->browser()->toPlainText().startsWith(QStringLiteral("Glossary")));
    }

    void badFileShowsErrorAndKeepsModel_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");  // a part of the loader's message
        QByteArray garbage(4096, '\0');
        for (int i = 0; i < garbage.size(); ++i) garbage[i] = char((i * 131 + 7) & 0xff);
        QTest::newRow("garbage") << garbage << "magic";
        QTest::newRow("empty") << QByteArray() << "";
        const QString good = fixture("fx-gqa.gguf");
        QFile f(good);
        QByteArray head;
        if (f.open(QIODevice::ReadOnly)) head = f.read(200);
        QTest::newRow("truncated") << head << "";
    }
    void badFileShowsErrorAndKeepsModel() {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        const QString good = fixture("fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(good.toStdString(), "the fixture model");

        gui::Language language;
        MainWindow w(&language);
        w.show();
        QVERIFY(open_and_wait(w, good));
        const int rows = w.tensorModel()->rowCount();
        const QString title = w.specPanel()->title();
        const QString tensors = spec_value(w, "tensors");

        QTemporaryFile bad(QDir::tempPath() + QStringLiteral("/lmscope-bad-XXXXXX.gguf"));
        QVERIFY(bad.open());
        bad.write(content);
        bad.flush();
        const QString bad_name = QFileInfo(bad.fileName()).fileName();
        const QString expected = loader_error(bad.fileName());
        QVERIFY2(!expected.isEmpty(), "the loader accepted the bad file");
        QVERIFY2(expected.contains(reason), qPrintable(expected));

        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openFile(bad.fileName());
        QVERIFY(failed.wait(60000));
        QCOMPARE(failed.front().front().toString(), expected);

        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY2(box, "no modal message box");
        QVERIFY2(box->text().contains(bad_name), qPrintable(box->text()));
        QCOMPARE(box->informativeText(), expected);
        QCOMPARE(box->icon(), QMessageBox::Critical);
        box->button(QMessageBox::Ok)->click();
        QTRY_VERIFY(!QApplication::activeModalWidget());

        // The previous model is still shown, and the window still works.
        QCOMPARE(w.tensorModel()->rowCount(), rows);
        QCOMPARE(w.specPanel()->title(), title);
        QCOMPARE(spec_value(w, "tensors"), tensors);
        QVERIFY(w.document()->model());
        QVERIFY(open_and_wait(w, fixture("fx-mha-untied.gguf")));
        QCOMPARE(spec_value(w, "layers"), QStringLiteral("2"));
    }

    void missingFileShowsError() {
        gui::Language language;
        MainWindow w(&language);
        w.show();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        const QString path = QDir::tempPath() + QStringLiteral("/lmscope-no-such-model.gguf");
        w.openFile(path);
        QVERIFY(failed.wait(60000));
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("lmscope-no-such-model.gguf")));
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        box->close();
        QVERIFY(!w.document()->model());
        QCOMPARE(w.tensorModel()->rowCount(), 0);
    }

    void newestRequestWins() {
        const QString a = fixture("fx-gqa.gguf"), b = fixture("fx-mha-untied.gguf");
        LMSCOPE_REQUIRE_FILE(b.toStdString(), "the fixture model");
        gui::Language language;
        MainWindow w(&language);
        QSignalSpy changed(w.document(), &ModelDocument::modelChanged);
        w.openFile(a);
        w.openFile(b);
        QVERIFY(changed.wait(60000));
        QTest::qWait(50);  // a stale result would arrive as a second signal
        QCOMPARE(changed.size(), 1);
        QCOMPARE(w.document()->model()->path, b);
        QCOMPARE(spec_value(w, "heads"), QStringLiteral("4"));
    }

    void dropOpensFile() {
        const QString path = fixture("fx-mha-untied.gguf");
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "the fixture model");
        gui::Language language;
        MainWindow w(&language);
        w.show();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy changed(w.document(), &ModelDocument::modelChanged);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(changed.wait(60000));
        QCOMPARE(spec_value(w, "layers"), QStringLiteral("2"));

        QMimeData two;  // several files: refused
        two.setUrls({QUrl::fromLocalFile(path), QUrl::fromLocalFile(path)});
        QDragEnterEvent enter2(QPoint(10, 10), Qt::CopyAction, &two, Qt::LeftButton, Qt::NoModifier);
        enter2.setAccepted(false);
        QApplication::sendEvent(&w, &enter2);
        QVERIFY(!enter2.isAccepted());
    }

    void recentFilesRemembered() {
        const QString a = fixture("fx-gqa.gguf"), b = fixture("fx-mha-untied.gguf");
        LMSCOPE_REQUIRE_FILE(b.toStdString(), "the fixture model");
        {
            gui::Language language;
            MainWindow w(&language);
            QVERIFY(open_and_wait(w, a));
            QVERIFY(open_and_wait(w, b));
            QVERIFY(open_and_wait(w, a));
        }
        const QStringList recent = gui::RecentFiles().files();
        QCOMPARE(recent, (QStringList{QFileInfo(a).absoluteFilePath(), QFileInfo(b).absoluteFilePath()}));
        QCOMPARE(QSettings().value(QStringLiteral("lastFolder")).toString(), QFileInfo(a).absolutePath());

        gui::RecentFiles files;
        for (int i = 0; i < gui::RecentFiles::kMax + 3; ++i) files.add(QStringLiteral("/tmp/m%1.gguf").arg(i));
        QCOMPARE(files.files().size(), gui::RecentFiles::kMax);
        QCOMPARE(files.files().front(), QStringLiteral("/tmp/m%1.gguf").arg(gui::RecentFiles::kMax + 2));
        files.clear();
        QVERIFY(files.files().isEmpty());
    }

    // The window's geometry is remembered; one past the screen (a hostile model once widened
    // the window to 8,388,828 px, and such a window paints nothing) is saved within the screen.
    void geometryRemembered_data() {
        QTest::addColumn<QSize>("size");  // the window's when it closes
        const QSize room = QGuiApplication::primaryScreen()->availableGeometry().size();
        QTest::newRow("within the screen") << room - QSize(40, 20);
        QTest::newRow("8,388,828 px wide") << QSize(8388828, room.height() - 20);
    }
    void geometryRemembered() {
        QFETCH(QSize, size);
        const QSize room = QGuiApplication::primaryScreen()->availableGeometry().size();
        gui::Language language;
        {
            MainWindow w(&language);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(size);  // closed before it repaints
            w.close();
        }
        MainWindow again(&language);
        if (size.width() <= room.width()) QCOMPARE(again.size(), size);
        QVERIFY2(testing::within_screen(again), qPrintable(QStringLiteral("%1 x %2").arg(again.width()).arg(again.height())));
    }
    // A geometry saved past the screen (before the window kept to it) is restored within it,
    // and the window paints.
    void savedGeometryPastTheScreenClamped() {
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        QWidget probe;  // what a session saved when the window had grown
        probe.setGeometry(room.left() + 10, room.top() + 10, 8388828, room.height() - 20);
        QSettings().setValue(QStringLiteral("window/geometry"), probe.saveGeometry());
        gui::Language language;
        MainWindow w(&language);
        QVERIFY2(testing::within_screen(w), qPrintable(QStringLiteral("%1 x %2").arg(w.width()).arg(w.height())));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.width() < 2 * QGuiApplication::primaryScreen()->availableGeometry().width());  // the docks' default may add some
        QVERIFY(!w.grab().isNull());  // and it paints
    }

    // File > Export writes the chart shown and names it (issue 35: with the Layer view's RoPE
    // tab picked it wrote the heatmap clicked before, saying nothing of which chart).
    void exportWritesTheShownChart() {
        gui::Language language;
        auto w = testing::open_window(&language, QStringLiteral("The river bank was"));
        QVERIFY(w);
        w->resize(1600, 1000);
        w->resetLayoutAction()->trigger();
        testing::settle();
        gui::SessionController* s = w->session();
        QVERIFY(testing::step_and_wait(s));
        QVERIFY(testing::step_and_wait(s));
        QDockWidget* heat_dock = w->dock(gui::Panel::Attention);
        QDockWidget* layer_dock = w->dock(gui::Panel::Layer);
        auto* heatmap = testing::panel_widget<widgets::AttentionHeatmap>(s, gui::Panel::Attention);
        auto* layer = testing::panel_widget<gui::LayerView>(s, gui::Panel::Layer);
        QVERIFY(heat_dock && layer_dock && heatmap && layer);
        heat_dock->raise();
        testing::settle();
        QTest::mouseClick(heatmap->plot(), Qt::LeftButton, {}, QPoint(10, 10));
        QCOMPARE(w->shownChart().plot, heatmap->plot());
        QVERIFY2(w->shownChart().name.startsWith(heat_dock->windowTitle()), qPrintable(w->shownChart().name));

        // The teacher brings the Layer view up and picks its RoPE tab.
        layer_dock->raise();
        testing::settle();
        auto* tabs = layer->findChild<QTabWidget*>();
        const int rope_tab = int(gui::LayerView::Tab::Rope);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(rope_tab).center());
        QCOMPARE(layer->tab(), gui::LayerView::Tab::Rope);
        QTRY_VERIFY_WITH_TIMEOUT(layer->figures() && !layer->computing(), 60000);
        testing::settle();
        const gui::ShownChart chart = w->shownChart();
        auto* rope = layer->findChild<widgets::RopeView*>();
        QVERIFY(chart.plot == rope->pairsPlot() || chart.plot == rope->spectrumPlot() || chart.plot == rope->offsetPlot());
        const QString named = layer_dock->windowTitle() + QStringLiteral(" › ") + tabs->tabText(rope_tab);
        QVERIFY2(chart.name.startsWith(named), qPrintable(chart.name));
        QVERIFY2(chart.file_stem.startsWith(QStringLiteral("layer-rope")), qPrintable(chart.file_stem));
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath(QStringLiteral("shown.png"));
        QVERIFY2(w->exportFocusedChart(png, &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), chart.plot->size() * 2);  // that chart, at twice its size
        QVERIFY(!w->exportFocusedChart(dir.filePath(QStringLiteral("shown.csv")), &error));  // it keeps no table
        QVERIFY2(error.contains(chart.name) && error.contains(QStringLiteral("PNG")), qPrintable(error));

        // The heatmap brought back and clicked: it, with its numbers.
        heat_dock->raise();
        testing::settle();
        QVERIFY(w->shownChart().plot != chart.plot);  // the RoPE tab is no longer shown
        QTest::mouseClick(heatmap->plot(), Qt::LeftButton, {}, QPoint(10, 10));
        QCOMPARE(w->shownChart().plot, heatmap->plot());
        QVERIFY2(w->exportFocusedChart(dir.filePath(QStringLiteral("heat.csv")), &error), qPrintable(error));
    }

    void sampleModelLookup() {
        const gui::SampleModel& smol = gui::sample_models().front();
        const QByteArray saved = qgetenv(smol.env);
        const QString fx = fixture("fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(fx.toStdString(), "the fixture model");
        qputenv(smol.env, QFile::encodeName(fx));
        QCOMPARE(gui::sample_model_candidates(smol).front(), fx);
        QCOMPARE(gui::find_sample_model(), QFileInfo(fx).absoluteFilePath());
        const QString absent = QDir::tempPath() + QStringLiteral("/lmscope-absent-sample.gguf");
        qputenv(smol.env, QFile::encodeName(absent));
        QVERIFY(gui::find_sample_model() != absent);  // skipped: not a file
        QVERIFY(gui::sample_model_candidates(smol).size() >= 3);
        if (saved.isEmpty()) qunsetenv(smol.env);
        else qputenv(smol.env, saved);
    }

    void sampleModelMenu_data() {
        QTest::addColumn<int>("entry");
        QTest::addColumn<QString>("copy");  // a fixture the model's variable names instead; empty: as fetched
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("layers");
        QTest::newRow("SmolLM2") << 0 << QString() << "llama" << "30";
        QTest::newRow("Gemma 3 270M") << 1 << QString() << "gemma3" << "18";
        QTest::newRow("Gemma 3 270M: LMSCOPE_GEMMA_MODEL names fx-gemma3") << 1 << "fx-gemma3.gguf" << "gemma3" << "4";
    }
    // The submenu lists every sample model, SmolLM2 then Gemma 3; an entry opens its model.
    void sampleModelMenu() {
        QFETCH(int, entry);
        QFETCH(QString, copy);
        QFETCH(QString, arch);
        QFETCH(QString, layers);
        if (!copy.isEmpty()) {
            copy = fixture(qPrintable(copy));
            LMSCOPE_REQUIRE_FILE(copy.toStdString(), "the fixture model");
        }
        const gui::SampleModel& m = gui::sample_models()[size_t(entry)];
        const QByteArray saved = qgetenv(m.env);
        const auto restore = qScopeGuard([&] {
            if (saved.isEmpty()) qunsetenv(m.env);
            else qputenv(m.env, saved);
        });
        if (!copy.isEmpty()) qputenv(m.env, QFile::encodeName(copy));
        const QString path = gui::find_sample_model(m);
        gui::Language language;
        MainWindow w(&language);
        auto* menu = w.findChild<QMenu*>(QStringLiteral("sampleModelMenu"));
        QVERIFY(menu);
        QCOMPARE(menu->title(), QStringLiteral("Open Sa&mple Model"));
        emit menu->aboutToShow();
        const QList<QAction*> actions = menu->actions();
        QCOMPARE(actions.size(), 2);
        QVERIFY2(actions[0]->text().startsWith(QStringLiteral("SmolLM2-135M")), qPrintable(actions[0]->text()));
        QVERIFY2(actions[1]->text().startsWith(QStringLiteral("Gemma 3 270M")), qPrintable(actions[1]->text()));
        QAction* a = actions[entry];
        QCOMPARE(a->statusTip(), gui::sample_model_about(m));
        if (path.isEmpty()) {
            QVERIFY(!a->isEnabled());
            QVERIFY2(a->text().contains(QStringLiteral("sample_models/fetch.sh")), qPrintable(a->text()));
            QSKIP(qPrintable(QStringLiteral("%1 is absent: run sample_models/fetch.sh").arg(QLatin1String(m.file))));
        }
        QVERIFY(a->isEnabled());
        QSignalSpy changed(w.document(), &ModelDocument::modelChanged);
        a->trigger();
        QVERIFY(changed.wait(60000));
        QCOMPARE(w.document()->model()->path, path);
        QCOMPARE(spec_value(w, "layers"), layers);
        QCOMPARE(QString::fromStdString(w.document()->model()->summary.hparams.architecture), arch);
    }

    void switchesLanguageLive() {
        gui::Language language;
        MainWindow w(&language);
        QMenu* file_menu = w.menuBar()->actions().front()->menu();
        QCOMPARE(file_menu->title(), QStringLiteral("&File"));
        QVERIFY(language.apply(QStringLiteral("zh_CN")));
        QTRY_COMPARE(file_menu->title(), QStringLiteral("文件(&F)"));
        QCOMPARE(w.findChild<QMenu*>(QStringLiteral("sampleModelMenu"))->title(), QStringLiteral("打开示例模型(&M)"));
        QCOMPARE(gui::Language::saved(), QStringLiteral("zh_CN"));
        QCOMPARE(w.specPanel()->title(), QStringLiteral("未加载模型"));
        QVERIFY(language.apply(QStringLiteral("en")));
        QTRY_COMPARE(file_menu->title(), QStringLiteral("&File"));
        QVERIFY(!language.apply(QStringLiteral("fr")));  // no French translation
        QCOMPARE(language.current(), QString());
    }
};

QTEST_MAIN(TestGuiMainWindow)
#include "test_gui_main_window.moc"
