/**
 * Countries (ISO 3166 alpha-2 and alpha-3) and major cities and ports (UN/LOCODE location and IATA codes) with
 * their names in English, German, Japanese and Chinese: a column that stores codes is matched by a question
 * that names the place, and the reverse. World knowledge, not knowledge of any one data set.
 */

interface Place {
  codes: readonly string[];
  names: readonly string[];
}

const COUNTRIES: readonly Place[] = [
  { codes: ["DE", "DEU"], names: ["germany", "deutschland", "ドイツ", "德国"] },
  { codes: ["FR", "FRA"], names: ["france", "frankreich", "フランス", "法国"] },
  { codes: ["IT", "ITA"], names: ["italy", "italien", "イタリア", "意大利"] },
  { codes: ["ES", "ESP"], names: ["spain", "spanien", "スペイン", "西班牙"] },
  { codes: ["PT", "PRT"], names: ["portugal", "ポルトガル", "葡萄牙"] },
  { codes: ["NL", "NLD"], names: ["netherlands", "the netherlands", "holland", "niederlande", "オランダ", "荷兰"] },
  { codes: ["BE", "BEL"], names: ["belgium", "belgien", "ベルギー", "比利时"] },
  { codes: ["LU", "LUX"], names: ["luxembourg", "luxemburg", "ルクセンブルク", "卢森堡"] },
  { codes: ["AT", "AUT"], names: ["austria", "österreich", "oesterreich", "オーストリア", "奥地利"] },
  { codes: ["CH", "CHE"], names: ["switzerland", "schweiz", "スイス", "瑞士"] },
  { codes: ["PL", "POL"], names: ["poland", "polen", "ポーランド", "波兰"] },
  { codes: ["CZ", "CZE"], names: ["czechia", "czech republic", "tschechien", "チェコ", "捷克"] },
  { codes: ["SK", "SVK"], names: ["slovakia", "slowakei", "スロバキア", "斯洛伐克"] },
  { codes: ["HU", "HUN"], names: ["hungary", "ungarn", "ハンガリー", "匈牙利"] },
  { codes: ["RO", "ROU"], names: ["romania", "rumänien", "ルーマニア", "罗马尼亚"] },
  { codes: ["BG", "BGR"], names: ["bulgaria", "bulgarien", "ブルガリア", "保加利亚"] },
  { codes: ["GR", "GRC"], names: ["greece", "griechenland", "ギリシャ", "希腊"] },
  { codes: ["SE", "SWE"], names: ["sweden", "schweden", "スウェーデン", "瑞典"] },
  { codes: ["NO", "NOR"], names: ["norway", "norwegen", "ノルウェー", "挪威"] },
  { codes: ["DK", "DNK"], names: ["denmark", "dänemark", "デンマーク", "丹麦"] },
  { codes: ["FI", "FIN"], names: ["finland", "finnland", "フィンランド", "芬兰"] },
  { codes: ["EE", "EST"], names: ["estonia", "estland", "エストニア", "爱沙尼亚"] },
  { codes: ["LV", "LVA"], names: ["latvia", "lettland", "ラトビア", "拉脱维亚"] },
  { codes: ["LT", "LTU"], names: ["lithuania", "litauen", "リトアニア", "立陶宛"] },
  { codes: ["IE", "IRL"], names: ["ireland", "irland", "アイルランド", "爱尔兰"] },
  {
    codes: ["GB", "GBR", "UK"],
    names: ["united kingdom", "britain", "great britain", "großbritannien", "イギリス", "英国"],
  },
  {
    codes: ["US", "USA"],
    names: ["united states", "usa", "america", "vereinigte staaten", "アメリカ", "米国", "美国"],
  },
  { codes: ["CA", "CAN"], names: ["canada", "kanada", "カナダ", "加拿大"] },
  { codes: ["MX", "MEX"], names: ["mexico", "mexiko", "メキシコ", "墨西哥"] },
  { codes: ["BR", "BRA"], names: ["brazil", "brasilien", "ブラジル", "巴西"] },
  { codes: ["JP", "JPN"], names: ["japan", "日本"] },
  { codes: ["CN", "CHN"], names: ["china", "中国"] },
  { codes: ["KR", "KOR"], names: ["korea", "south korea", "südkorea", "korea (south)", "韓国", "韩国"] },
  { codes: ["TW", "TWN"], names: ["taiwan", "台湾"] },
  { codes: ["HK", "HKG"], names: ["hong kong", "hongkong", "香港"] },
  { codes: ["SG", "SGP"], names: ["singapore", "singapur", "シンガポール", "新加坡"] },
  { codes: ["IN", "IND"], names: ["india", "indien", "インド", "印度"] },
  { codes: ["AU", "AUS"], names: ["australia", "australien", "オーストラリア", "澳大利亚"] },
  { codes: ["TR", "TUR"], names: ["turkey", "türkei", "トルコ", "土耳其"] },
  { codes: ["AE", "ARE"], names: ["united arab emirates", "uae", "emirates", "アラブ首長国連邦", "阿联酋"] },
  { codes: ["ZA", "ZAF"], names: ["south africa", "südafrika", "南アフリカ", "南非"] },
  { codes: ["VN", "VNM"], names: ["vietnam", "ベトナム", "越南"] },
  { codes: ["TH", "THA"], names: ["thailand", "タイ", "泰国"] },
];

const CITIES: readonly Place[] = [
  { codes: ["HAM", "DEHAM"], names: ["hamburg", "ハンブルク", "汉堡"] },
  { codes: ["BRE", "DEBRE"], names: ["bremen", "ブレーメン", "不来梅"] },
  { codes: ["BRV", "DEBRV"], names: ["bremerhaven", "ブレーマーハーフェン"] },
  { codes: ["FRA", "DEFRA"], names: ["frankfurt", "フランクフルト", "法兰克福"] },
  { codes: ["MUC", "DEMUC"], names: ["munich", "münchen", "ミュンヘン", "慕尼黑"] },
  { codes: ["BER", "DEBER"], names: ["berlin", "ベルリン", "柏林"] },
  { codes: ["DUS", "DEDUS"], names: ["düsseldorf", "duesseldorf", "デュッセルドルフ", "杜塞尔多夫"] },
  { codes: ["CGN", "DECGN"], names: ["cologne", "köln", "ケルン", "科隆"] },
  { codes: ["RTM", "NLRTM"], names: ["rotterdam", "ロッテルダム", "鹿特丹"] },
  { codes: ["AMS", "NLAMS"], names: ["amsterdam", "アムステルダム", "阿姆斯特丹"] },
  { codes: ["ANR", "BEANR"], names: ["antwerp", "antwerpen", "アントワープ", "安特卫普"] },
  { codes: ["BRU", "BEBRU"], names: ["brussels", "brüssel", "ブリュッセル", "布鲁塞尔"] },
  { codes: ["LYS", "FRLYS"], names: ["lyon", "リヨン", "里昂"] },
  { codes: ["PAR", "FRPAR", "CDG"], names: ["paris", "パリ", "巴黎"] },
  { codes: ["LEH", "FRLEH"], names: ["le havre", "ル・アーヴル", "勒阿弗尔"] },
  { codes: ["MRS", "FRMRS"], names: ["marseille", "マルセイユ", "马赛"] },
  { codes: ["GDN", "PLGDN"], names: ["gdańsk", "gdansk", "danzig", "グダニスク", "格但斯克"] },
  { codes: ["GDY", "PLGDY"], names: ["gdynia", "gdingen", "グディニャ"] },
  { codes: ["WAW", "PLWAW"], names: ["warsaw", "warschau", "ワルシャワ", "华沙"] },
  { codes: ["PRG", "CZPRG"], names: ["prague", "prag", "プラハ", "布拉格"] },
  { codes: ["VIE", "ATVIE"], names: ["vienna", "wien", "ウィーン", "维也纳"] },
  { codes: ["ZRH", "CHZRH"], names: ["zurich", "zürich", "チューリッヒ", "苏黎世"] },
  { codes: ["BSL", "CHBSL"], names: ["basel", "バーゼル", "巴塞尔"] },
  { codes: ["MIL", "ITMIL", "MXP"], names: ["milan", "mailand", "ミラノ", "米兰"] },
  { codes: ["GOA", "ITGOA"], names: ["genoa", "genua", "ジェノヴァ", "热那亚"] },
  { codes: ["MAD", "ESMAD"], names: ["madrid", "マドリード", "马德里"] },
  { codes: ["BCN", "ESBCN"], names: ["barcelona", "バルセロナ", "巴塞罗那"] },
  { codes: ["VLC", "ESVLC"], names: ["valencia", "バレンシア", "瓦伦西亚"] },
  { codes: ["LON", "GBLON", "LHR"], names: ["london", "ロンドン", "伦敦"] },
  { codes: ["FXT", "GBFXT"], names: ["felixstowe", "フェリクストウ"] },
  { codes: ["CPH", "DKCPH"], names: ["copenhagen", "kopenhagen", "コペンハーゲン", "哥本哈根"] },
  { codes: ["STO", "SESTO", "ARN"], names: ["stockholm", "ストックホルム", "斯德哥尔摩"] },
  { codes: ["GOT", "SEGOT"], names: ["gothenburg", "göteborg", "ヨーテボリ", "哥德堡"] },
  { codes: ["OSL", "NOOSL"], names: ["oslo", "オスロ", "奥斯陆"] },
  { codes: ["HEL", "FIHEL"], names: ["helsinki", "ヘルシンキ", "赫尔辛基"] },
  { codes: ["OSA", "JPOSA", "KIX"], names: ["osaka", "大阪"] },
  { codes: ["TYO", "JPTYO", "NRT", "HND"], names: ["tokyo", "tokio", "東京", "东京"] },
  { codes: ["YOK", "JPYOK"], names: ["yokohama", "横浜", "横滨"] },
  { codes: ["NGO", "JPNGO"], names: ["nagoya", "名古屋"] },
  { codes: ["UKB", "JPUKB"], names: ["kobe", "神戸", "神户"] },
  { codes: ["SHA", "CNSHA", "PVG"], names: ["shanghai", "上海"] },
  { codes: ["SZX", "CNSZX"], names: ["shenzhen", "深圳"] },
  { codes: ["PUS", "KRPUS"], names: ["busan", "pusan", "釜山"] },
  { codes: ["SEL", "KRSEL", "ICN"], names: ["seoul", "ソウル", "首尔"] },
  { codes: ["SIN", "SGSIN"], names: ["singapore", "singapur", "シンガポール", "新加坡"] },
  { codes: ["HKG", "HKHKG"], names: ["hong kong", "hongkong", "香港"] },
  { codes: ["DXB", "AEDXB", "JEA"], names: ["dubai", "ドバイ", "迪拜"] },
  { codes: ["NYC", "USNYC", "JFK"], names: ["new york", "ニューヨーク", "纽约"] },
  { codes: ["LAX", "USLAX"], names: ["los angeles", "ロサンゼルス", "洛杉矶"] },
  { codes: ["CHI", "USCHI", "ORD"], names: ["chicago", "シカゴ", "芝加哥"] },
];

const PLACES = [...COUNTRIES, ...CITIES];
const BY_KEY = new Map<string, Place[]>();
for (const place of PLACES) {
  for (const key of [...place.codes.map((c) => c.toLowerCase()), ...place.names]) {
    const list = BY_KEY.get(key) ?? [];
    list.push(place);
    BY_KEY.set(key, list);
  }
}

/**
 * Names a column value goes by as a place: `PL` -> poland, polen, ポーランド, 波兰; `Hamburg` -> ham, hamburg...
 * Only for values that are a place's code or one of its names; codes come back upper case (matched as written).
 */
export function placeAliases(value: string): { names: string[]; codes: string[] } {
  const places = BY_KEY.get(value.trim().toLowerCase()) ?? [];
  return {
    names: [...new Set(places.flatMap((p) => p.names))],
    codes: [...new Set(places.flatMap((p) => p.codes))],
  };
}
