-- Nepal's 7 provinces, 77 districts and 36 municipalities (spec §2.8): the metropolitan and
-- sub-metropolitan cities and some municipalities and rural municipalities. A migration runs once
-- per database, under the migrations' advisory lock, so replicas starting together seed it once and
-- a restart changes nothing; ON CONFLICT on the natural keys (the lower(name) indexes) leaves a row
-- an administrator already made alone. Rows are inserted in the order below, so on a fresh
-- database the ids are 1-7, 1-77 and 1-36 in that order.

INSERT INTO "provinces" ("public_id", "name", "name_np", "code", "updated_at")
SELECT gen_random_uuid(), v.name, v.name_np, v.code, CURRENT_TIMESTAMP
FROM (VALUES
    (1, 'Koshi', 'कोशी', 'NP-P1'),
    (2, 'Madhesh', 'मधेश', 'NP-P2'),
    (3, 'Bagmati', 'बागमती', 'NP-P3'),
    (4, 'Gandaki', 'गण्डकी', 'NP-P4'),
    (5, 'Lumbini', 'लुम्बिनी', 'NP-P5'),
    (6, 'Karnali', 'कर्णाली', 'NP-P6'),
    (7, 'Sudurpashchim', 'सुदूरपश्चिम', 'NP-P7')
) AS v(ord, name, name_np, code)
ORDER BY v.ord
ON CONFLICT (lower("name")) DO NOTHING;

INSERT INTO "districts" ("public_id", "province_id", "name", "name_np", "updated_at")
SELECT gen_random_uuid(), p.id, v.name, v.name_np, CURRENT_TIMESTAMP
FROM (VALUES
    (1, 'Koshi', 'Taplejung', 'ताप्लेजुङ'),
    (2, 'Koshi', 'Panchthar', 'पाँचथर'),
    (3, 'Koshi', 'Ilam', 'इलाम'),
    (4, 'Koshi', 'Jhapa', 'झापा'),
    (5, 'Koshi', 'Morang', 'मोरङ'),
    (6, 'Koshi', 'Sunsari', 'सुनसरी'),
    (7, 'Koshi', 'Dhankuta', 'धनकुटा'),
    (8, 'Koshi', 'Terhathum', 'तेह्रथुम'),
    (9, 'Koshi', 'Sankhuwasabha', 'संखुवासभा'),
    (10, 'Koshi', 'Bhojpur', 'भोजपुर'),
    (11, 'Koshi', 'Solukhumbu', 'सोलुखुम्बु'),
    (12, 'Koshi', 'Okhaldhunga', 'ओखलढुंगा'),
    (13, 'Koshi', 'Khotang', 'खोटाङ'),
    (14, 'Koshi', 'Udayapur', 'उदयपुर'),
    (15, 'Madhesh', 'Saptari', 'सप्तरी'),
    (16, 'Madhesh', 'Siraha', 'सिरहा'),
    (17, 'Madhesh', 'Dhanusha', 'धनुषा'),
    (18, 'Madhesh', 'Mahottari', 'महोत्तरी'),
    (19, 'Madhesh', 'Sarlahi', 'सर्लाही'),
    (20, 'Madhesh', 'Rautahat', 'रौतहट'),
    (21, 'Madhesh', 'Bara', 'बारा'),
    (22, 'Madhesh', 'Parsa', 'पर्सा'),
    (23, 'Bagmati', 'Dolakha', 'दोलखा'),
    (24, 'Bagmati', 'Sindhupalchok', 'सिन्धुपाल्चोक'),
    (25, 'Bagmati', 'Rasuwa', 'रसुवा'),
    (26, 'Bagmati', 'Dhading', 'धादिङ'),
    (27, 'Bagmati', 'Nuwakot', 'नुवाकोट'),
    (28, 'Bagmati', 'Kathmandu', 'काठमाडौं'),
    (29, 'Bagmati', 'Bhaktapur', 'भक्तपुर'),
    (30, 'Bagmati', 'Lalitpur', 'ललितपुर'),
    (31, 'Bagmati', 'Kavrepalanchok', 'काभ्रेपलाञ्चोक'),
    (32, 'Bagmati', 'Ramechhap', 'रामेछाप'),
    (33, 'Bagmati', 'Sindhuli', 'सिन्धुली'),
    (34, 'Bagmati', 'Makwanpur', 'मकवानपुर'),
    (35, 'Bagmati', 'Chitwan', 'चितवन'),
    (36, 'Gandaki', 'Gorkha', 'गोरखा'),
    (37, 'Gandaki', 'Manang', 'मनाङ'),
    (38, 'Gandaki', 'Mustang', 'मुस्ताङ'),
    (39, 'Gandaki', 'Myagdi', 'म्याग्दी'),
    (40, 'Gandaki', 'Kaski', 'कास्की'),
    (41, 'Gandaki', 'Lamjung', 'लमजुङ'),
    (42, 'Gandaki', 'Tanahun', 'तनहुँ'),
    (43, 'Gandaki', 'Nawalpur', 'नवलपुर'),
    (44, 'Gandaki', 'Syangja', 'स्याङ्जा'),
    (45, 'Gandaki', 'Parbat', 'पर्वत'),
    (46, 'Gandaki', 'Baglung', 'बागलुङ'),
    (47, 'Lumbini', 'Rukum East', 'पूर्वी रुकुम'),
    (48, 'Lumbini', 'Rolpa', 'रोल्पा'),
    (49, 'Lumbini', 'Pyuthan', 'प्युठान'),
    (50, 'Lumbini', 'Gulmi', 'गुल्मी'),
    (51, 'Lumbini', 'Arghakhanchi', 'अर्घाखाँची'),
    (52, 'Lumbini', 'Palpa', 'पाल्पा'),
    (53, 'Lumbini', 'Parasi', 'परासी'),
    (54, 'Lumbini', 'Rupandehi', 'रुपन्देही'),
    (55, 'Lumbini', 'Kapilvastu', 'कपिलवस्तु'),
    (56, 'Lumbini', 'Dang', 'दाङ'),
    (57, 'Lumbini', 'Banke', 'बाँके'),
    (58, 'Lumbini', 'Bardiya', 'बर्दिया'),
    (59, 'Karnali', 'Dolpa', 'डोल्पा'),
    (60, 'Karnali', 'Mugu', 'मुगु'),
    (61, 'Karnali', 'Humla', 'हुम्ला'),
    (62, 'Karnali', 'Jumla', 'जुम्ला'),
    (63, 'Karnali', 'Kalikot', 'कालिकोट'),
    (64, 'Karnali', 'Dailekh', 'दैलेख'),
    (65, 'Karnali', 'Jajarkot', 'जाजरकोट'),
    (66, 'Karnali', 'Rukum West', 'पश्चिमी रुकुम'),
    (67, 'Karnali', 'Salyan', 'सल्यान'),
    (68, 'Karnali', 'Surkhet', 'सुर्खेत'),
    (69, 'Sudurpashchim', 'Bajura', 'बाजुरा'),
    (70, 'Sudurpashchim', 'Bajhang', 'बझाङ'),
    (71, 'Sudurpashchim', 'Achham', 'अछाम'),
    (72, 'Sudurpashchim', 'Doti', 'डोटी'),
    (73, 'Sudurpashchim', 'Kailali', 'कैलाली'),
    (74, 'Sudurpashchim', 'Kanchanpur', 'कञ्चनपुर'),
    (75, 'Sudurpashchim', 'Dadeldhura', 'डडेलधुरा'),
    (76, 'Sudurpashchim', 'Baitadi', 'बैतडी'),
    (77, 'Sudurpashchim', 'Darchula', 'दार्चुला')
) AS v(ord, province, name, name_np)
JOIN "provinces" p ON lower(p."name") = lower(v.province)
ORDER BY v.ord
ON CONFLICT ("province_id", lower("name")) DO NOTHING;

INSERT INTO "municipalities" ("public_id", "district_id", "name", "name_np", "type", "ward_count", "updated_at")
SELECT gen_random_uuid(), d.id, v.name, v.name_np, v.type::"municipality_type", v.ward_count, CURRENT_TIMESTAMP
FROM (VALUES
    (1, 'Bagmati', 'Kathmandu', 'Kathmandu', 'काठमाडौं', 'metropolitan', 32),
    (2, 'Bagmati', 'Lalitpur', 'Lalitpur', 'ललितपुर', 'metropolitan', 29),
    (3, 'Gandaki', 'Kaski', 'Pokhara', 'पोखरा', 'metropolitan', 33),
    (4, 'Bagmati', 'Chitwan', 'Bharatpur', 'भरतपुर', 'metropolitan', 29),
    (5, 'Koshi', 'Morang', 'Biratnagar', 'विराटनगर', 'metropolitan', 19),
    (6, 'Madhesh', 'Parsa', 'Birgunj', 'वीरगंज', 'metropolitan', 32),
    (7, 'Koshi', 'Sunsari', 'Dharan', 'धरान', 'sub_metropolitan', 20),
    (8, 'Koshi', 'Sunsari', 'Itahari', 'इटहरी', 'sub_metropolitan', 20),
    (9, 'Madhesh', 'Dhanusha', 'Janakpurdham', 'जनकपुरधाम', 'sub_metropolitan', 25),
    (10, 'Madhesh', 'Bara', 'Kalaiya', 'कलैया', 'sub_metropolitan', 27),
    (11, 'Madhesh', 'Bara', 'Jitpur Simara', 'जितपुरसिमरा', 'sub_metropolitan', 24),
    (12, 'Bagmati', 'Makwanpur', 'Hetauda', 'हेटौंडा', 'sub_metropolitan', 19),
    (13, 'Lumbini', 'Rupandehi', 'Butwal', 'बुटवल', 'sub_metropolitan', 19),
    (14, 'Lumbini', 'Dang', 'Ghorahi', 'घोराही', 'sub_metropolitan', 19),
    (15, 'Lumbini', 'Dang', 'Tulsipur', 'तुलसीपुर', 'sub_metropolitan', 19),
    (16, 'Lumbini', 'Banke', 'Nepalgunj', 'नेपालगन्ज', 'sub_metropolitan', 23),
    (17, 'Sudurpashchim', 'Kailali', 'Dhangadhi', 'धनगढी', 'sub_metropolitan', 19),
    (18, 'Bagmati', 'Bhaktapur', 'Bhaktapur', 'भक्तपुर', 'municipality', 10),
    (19, 'Bagmati', 'Bhaktapur', 'Madhyapur Thimi', 'मध्यपुर थिमी', 'municipality', 9),
    (20, 'Bagmati', 'Kathmandu', 'Kirtipur', 'कीर्तिपुर', 'municipality', 10),
    (21, 'Bagmati', 'Kathmandu', 'Budhanilkantha', 'बूढानीलकण्ठ', 'municipality', 13),
    (22, 'Bagmati', 'Kavrepalanchok', 'Banepa', 'बनेपा', 'municipality', 14),
    (23, 'Bagmati', 'Kavrepalanchok', 'Dhulikhel', 'धुलिखेल', 'municipality', 12),
    (24, 'Koshi', 'Jhapa', 'Damak', 'दमक', 'municipality', 10),
    (25, 'Koshi', 'Jhapa', 'Mechinagar', 'मेचीनगर', 'municipality', 15),
    (26, 'Koshi', 'Ilam', 'Ilam', 'इलाम', 'municipality', 12),
    (27, 'Gandaki', 'Gorkha', 'Gorkha', 'गोरखा', 'municipality', 14),
    (28, 'Gandaki', 'Tanahun', 'Byas', 'व्यास', 'municipality', 14),
    (29, 'Lumbini', 'Palpa', 'Tansen', 'तानसेन', 'municipality', 14),
    (30, 'Karnali', 'Surkhet', 'Birendranagar', 'वीरेन्द्रनगर', 'municipality', 16),
    (31, 'Sudurpashchim', 'Kanchanpur', 'Bhimdatta', 'भीमदत्त', 'municipality', 19),
    (32, 'Koshi', 'Solukhumbu', 'Khumbu Pasanglhamu', 'खुम्बु पासाङल्हामु', 'rural_municipality', 5),
    (33, 'Bagmati', 'Rasuwa', 'Gosaikunda', 'गोसाइँकुण्ड', 'rural_municipality', 6),
    (34, 'Gandaki', 'Kaski', 'Annapurna', 'अन्नपूर्ण', 'rural_municipality', 11),
    (35, 'Gandaki', 'Mustang', 'Lo-Ghekar Damodarkunda', 'लो-घेकर दामोदरकुण्ड', 'rural_municipality', 5),
    (36, 'Karnali', 'Dolpa', 'Shey Phoksundo', 'शे फोक्सुण्डो', 'rural_municipality', 9)
) AS v(ord, province, district, name, name_np, type, ward_count)
JOIN "provinces" p ON lower(p."name") = lower(v.province)
JOIN "districts" d ON d."province_id" = p.id AND lower(d."name") = lower(v.district)
ORDER BY v.ord
ON CONFLICT ("district_id", lower("name")) DO NOTHING;
