<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Export</name>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1：无法写入：%2</translation>
    </message>
    <message>
        <source>%1: could not render the image</source>
        <translation>%1：无法渲染图像</translation>
    </message>
    <message>
        <source>%1: no chart to save</source>
        <translation>%1：没有可保存的图表</translation>
    </message>
    <message>
        <source>%1: nothing to save</source>
        <translation>%1：没有可保存的内容</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::MainWindow</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loaded %1 in %2 ms</source>
        <translation>已加载 %1，用时 %2 毫秒</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Cannot open model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation>无法打开 %1。</translation>
    </message>
    <message>
        <source>About lmscope</source>
        <translation>关于 lmscope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;lmscope %1&lt;/h3&gt;&lt;p&gt;Runs a language model one step at a time and shows what happens inside: tokens, attention, the KV cache, logits and sampling.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;lmscope %1&lt;/h3&gt;&lt;p&gt;逐步运行语言模型，展示其内部发生的一切：词元、注意力、KV 缓存、logits 与采样。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a GGUF model file</source>
        <translation>打开 GGUF 模型文件</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;About lmscope</source>
        <translation>关于 lmscope(&amp;A)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Open a GGUF file (Ctrl+O) or drop one on this window.</source>
        <translation>打开一个 GGUF 文件（Ctrl+O），或将文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>Open GGUF Model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清空菜单(&amp;C)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SpecText</name>
    <message>
        <source>unknown architecture</source>
        <translation>未知架构</translation>
    </message>
    <message>
        <source>GGUF v%1</source>
        <translation>GGUF v%1</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer blocks, each with attention and a feed-forward network</source>
        <translation>Transformer 块的数量，每块包含注意力和前馈网络</translation>
    </message>
    <message>
        <source>Embedding width</source>
        <translation>嵌入维度</translation>
    </message>
    <message>
        <source>Numbers per token in the residual stream</source>
        <translation>残差流中每个词元的数值个数</translation>
    </message>
    <message>
        <source>Query heads</source>
        <translation>查询头</translation>
    </message>
    <message>
        <source>Attention heads per layer</source>
        <translation>每层的注意力头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头</translation>
    </message>
    <message>
        <source>Key/value heads per layer; query heads share them</source>
        <translation>每层的键/值头数；查询头共享它们</translation>
    </message>
    <message>
        <source>MHA</source>
        <translation>MHA</translation>
    </message>
    <message>
        <source>Multi-head attention: every query head has its own keys and values</source>
        <translation>多头注意力：每个查询头都有自己的键和值</translation>
    </message>
    <message>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <source>Multi-query attention: all query heads share one key/value head</source>
        <translation>多查询注意力：所有查询头共享一个键/值头</translation>
    </message>
    <message>
        <source>GQA %1:1</source>
        <translation>GQA %1:1</translation>
    </message>
    <message>
        <source>Grouped-query attention: %1 query heads share each key/value head</source>
        <translation>分组查询注意力：每 %1 个查询头共享一个键/值头</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Numbers per query, key and value vector</source>
        <translation>每个查询、键、值向量的数值个数</translation>
    </message>
    <message>
        <source>Feed-forward width</source>
        <translation>前馈网络宽度</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Tokens the model knows</source>
        <translation>模型认识的词元数</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Positions the model was trained for</source>
        <translation>模型训练时的位置数</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Numbers in all tensors together</source>
        <translation>所有张量中数值的总个数</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Bytes of tensor data (file: %1)</source>
        <translation>张量数据的字节数（文件：%1）</translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation>每词元 KV 缓存</translation>
    </message>
    <message>
        <source>Keys and values of every layer for one token, stored as 16-bit floats</source>
        <translation>一个词元在所有层的键和值，以 16 位浮点数存储</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE 基数</translation>
    </message>
    <message>
        <source>RMS norm ε</source>
        <translation>RMS 归一化 ε</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>lmscope can run this model</source>
        <translation>lmscope 可以运行此模型</translation>
    </message>
    <message>
        <source>lmscope runs llama and qwen2 models with complete metadata</source>
        <translation>lmscope 可运行元数据完整的 llama 和 qwen2 模型</translation>
    </message>
    <message>
        <source>Runs in lmscope</source>
        <translation>可在 lmscope 中运行</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionGrid</name>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>No attention to show yet: run a step</source>
        <translation>还没有可显示的注意力：请先运行一步</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Layer %1 · head %2 · KV head %3</source>
        <translation>第 %1 层 · 头 %2 · KV 头 %3</translation>
    </message>
    <message>
        <source>&apos;%1&apos; (%2) looks most at &apos;%3&apos; (%4): %5</source>
        <translation>“%1”(%2) 最关注“%3”(%4)：%5</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionHeatmap</name>
    <message>
        <source>Mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Average the weights of every head of the layer</source>
        <translation>对该层所有头的权重取平均</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>key (attended-to token)</source>
        <translation>键（被关注的词元）</translation>
    </message>
    <message>
        <source>query (attending token)</source>
        <translation>查询（发出关注的词元）</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV head %1, shared by query heads %2 (GQA)</source>
        <translation>KV 头 %1，由查询头 %2 共享（GQA）</translation>
    </message>
    <message>
        <source>each head has its own keys and values (MHA)</source>
        <translation>每个头都有自己的键和值（MHA）</translation>
    </message>
    <message>
        <source>Layer %1 · mean over heads</source>
        <translation>第 %1 层 · 各头平均</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <source>what &apos;%1&apos; (position %2) attends to</source>
        <translation>“%1”（位置 %2）关注的内容</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (%2) → key &apos;%3&apos; (%4)</source>
        <translation>查询“%1”(%2) → 键“%3”(%4)</translation>
    </message>
    <message>
        <source>masked (the future is hidden)</source>
        <translation>已遮蔽（未来不可见）</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Attention, layer %1, mean over heads</source>
        <translation>注意力，第 %1 层，各头平均</translation>
    </message>
    <message>
        <source>Attention, layer %1, head %2</source>
        <translation>注意力，第 %1 层，头 %2</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::FilteredTable</name>
    <message>
        <source>Filter (any column)</source>
        <translation>筛选（任意列）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::MetadataModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::TensorTableModel</name>
    <message>
        <source>%1 elements</source>
        <translation>%1 个元素</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::TokenStrip</name>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>generated (greedy)</source>
        <translation>生成（贪心）</translation>
    </message>
    <message>
        <source>generated (sampled)</source>
        <translation>生成（采样）</translation>
    </message>
    <message>
        <source>forced by you</source>
        <translation>由你强制指定</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s): %1 prompt, %2 generated</source>
        <translation>
            <numerusform>%n 个词元：提示 %1 个，生成 %2 个</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;id %2 · position %3&lt;br&gt;piece %4&lt;br&gt;bytes %5–%6 · %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;ID %2 · 位置 %3&lt;br&gt;片段 %4&lt;br&gt;字节 %5–%6 · %7</translation>
    </message>
    <message>
        <source>byte fallback: this token is a raw byte, not a whole character</source>
        <translation>字节回退：此词元是一个原始字节，而非完整字符</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>byte</source>
        <translation>字节</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Runs a language model one step at a time and shows what happens inside.</source>
        <translation>逐步运行语言模型，并展示其内部发生的一切。</translation>
    </message>
    <message>
        <source>A GGUF model to open (default: the sample model).</source>
        <translation>要打开的 GGUF 模型（默认：示例模型）。</translation>
    </message>
</context>
</TS>
