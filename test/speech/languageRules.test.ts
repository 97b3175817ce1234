import { describe, expect, it } from 'vitest';
import { normalizeForSpeech } from '../../src/speech/normalize.ts';

const said = (text: string, language: string) => normalizeForSpeech(text, language).spoken;

describe('normalizeForSpeech beyond English', () => {
  it.each([
    ['es_ES', 'Costó $5,2 millones.', 'Costó 5,2 millones de dólares.'],
    ['es_ES', 'Cuesta 12,50 € o €3, y 1 € más.', 'Cuesta 12 euros con 50 céntimos o 3 euros, y un euro más.'],
    ['es_ES', 'Son 5 mil € y 0,99 €.', 'Son 5 mil euros y 99 céntimos.'],
    ['es_MX', 'Cuesta $20 o US$ 30,00.', 'Cuesta 20 pesos o 30 dólares.'],
    ['es_ES', 'El 28/11/2026 y el 2026-01-05.', 'El 28 de noviembre de 2026 y el 5 de enero de 2026.'],
    ['es_ES', 'El 1.º, la 2.ª y el 3er puesto.', 'El primero, la segunda y el tercer puesto.'],
    ['fr_FR', 'Le 1er pont a coûté 5,2 millions € le 01/02/2026.', 'Le premier pont a coûté 5,2 millions d\'euros le premier février 2026.'],
    ['fr_FR', 'La 1re et le 2e, 3 500 € et 12,50 €.', 'La première et le deuxième, 3 500 euros et 12 euros et 50 centimes.'],
    ['it_IT', 'È costato €5,2 milioni il 1/3/2026, la 2ª volta.', 'È costato 5,2 milioni di euro il primo marzo 2026, la seconda volta.'],
    ['pt_BR', 'Custou R$ 1,5 bilhão e R$12,50 em 28.11.2026, o 1º.', 'Custou 1,5 bilhão de reais e 12 reais e 50 centavos em 28 de novembro de 2026, o primeiro.'],
    ['hi_IN', 'लागत ₹500 और $5.20 थी, 28/11/2026 को।', 'लागत 500 रुपये और 5 डॉलर 20 सेंट थी, 28 नवंबर 2026 को।'],
    ['ja_JP', '2026/11/28に費用は$5.2億、￥1,000でした。', '2026年11月28日に費用は5.2億ドル、1,000円でした。'],
    ['ja_JP', '費用は1,000円でした。', '費用は1,000円でした。'],
    ['zh_CN', '2026-11-28，大桥耗资$5.2亿，票价¥1,000。', '2026年11月28日，大桥耗资5.2亿美元，票价1000元。'],
  ])('%s: %s', (language, text, spoken) => {
    expect(said(text, language)).toBe(spoken);
  });

  it('leaves numerals, percentages and times to espeak-ng, which reads them in the language', () => {
    const text = 'Unas 3.500 personas, el 15% a las 15:30.';
    expect(said(text, 'es_ES')).toBe(text);
  });

  it('maps every spoken token to the written token it came from, in order, none left without', () => {
    const { tokens } = normalizeForSpeech('Son $5,2 millones el 28/11/2026.', 'es_ES');
    expect(tokens).toEqual([
      { text: 'Son', written: 0 },
      { text: '5,2', written: 1 },
      { text: 'millones', written: 2 },
      { text: 'de', written: 2 },
      { text: 'dólares', written: 2 },
      { text: 'el', written: 3 },
      { text: '28', written: 4 },
      { text: 'de', written: 4 },
      { text: 'noviembre', written: 4 },
      { text: 'de', written: 4 },
      { text: '2026.', written: 4 },
    ]);
    expect(normalizeForSpeech('票价¥1,000。 很好', 'zh_CN').tokens).toEqual([
      { text: '票价1000元。', written: 0 },
      { text: '很好', written: 1 },
    ]);
  });

  it('reads a day-first date only when it is one', () => {
    expect(said('El 31/13/2026 y 1/2.', 'es_ES')).toBe('El 31/13/2026 y 1/2.');
  });
});
