<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fi" sourcelanguage="en">
<context>
    <name>Banner</name>
    <message>
        <source>NOT SAVED</source>
        <translation>EI TALLENNETTU</translation>
    </message>
    <message>
        <source>it could not be written</source>
        <translation>sitä ei voitu kirjoittaa</translation>
    </message>
    <message>
        <source>The move was not saved and is not in the match: {reason}. Enter it again once it can be saved.</source>
        <translation>Siirtoa ei tallennettu, eikä se ole ottelussa: {reason}. Syötä se uudelleen, kun sen voi tallentaa.</translation>
    </message>
    <message>
        <source>Redone: {move}</source>
        <translation>Tehty uudelleen: {move}</translation>
    </message>
    <message>
        <source>New match: {game}, {sides}. {turn}.</source>
        <translation>Uusi ottelu: {game}, {sides}. {turn}.</translation>
    </message>
    <message>
        <source>Resumed: round {round}. {scores}. {turn}.</source>
        <translation>Jatketaan: kierros {round}. {scores}. {turn}.</translation>
    </message>
    <message>
        <source>Resumed: round {round} is over. {scores}. {turn}.</source>
        <translation>Jatketaan: kierros {round} on päättynyt. {scores}. {turn}.</translation>
    </message>
    <message>
        <source>Resumed after round {round}. {scores}. {turn}.</source>
        <translation>Jatketaan kierroksen {round} jälkeen. {scores}. {turn}.</translation>
    </message>
    <message>
        <source>Undone: the hands of round {round}</source>
        <translation>Kumottu: kierroksen {round} kädet</translation>
    </message>
    <message>
        <source>Undone: {move}</source>
        <translation>Kumottu: {move}</translation>
    </message>
    <message>
        <source>Withdrawn: {count} moves</source>
        <translation>Peruttu {count} siirtoa</translation>
    </message>
    <message>
        <source>At {seconds} s: {said}</source>
        <translation>Kohdassa {seconds} s: {said}</translation>
    </message>
    <message>
        <source>The match is over.</source>
        <translation>Ottelu on päättynyt.</translation>
    </message>
    <message>
        <source>Round {round} is over: give the hands left (Round end…).</source>
        <translation>Kierros {round} on ohi: anna jäljelle jääneet kädet (Kierroksen loppu…).</translation>
    </message>
    <message>
        <source>No camera: enter each move with the buttons; undo and redo work as ever.</source>
        <translation>Ei kameraa: syötä jokainen siirto painikkeilla; kumoaminen ja uudelleen tekeminen toimivat kuten ennenkin.</translation>
    </message>
    <message>
        <source>The recording ended: corrections, undo and review still work.</source>
        <translation>Tallenne päättyi: korjaukset, kumoaminen ja tallenteen selaaminen toimivat yhä.</translation>
    </message>
</context>
<context>
    <name>CalibrationWizard</name>
    <message>
        <source>seat {number}</source>
        <extracomment>Drawn into the picture by OpenCV, whose font has only ASCII letters (write &quot;a&quot; for &quot;ä&quot;).</extracomment>
        <translation>paikka {number}</translation>
    </message>
    <message>
        <source>Calibrate the table</source>
        <translation>Pöydän kalibrointi</translation>
    </message>
    <message>
        <source>1. Print calibration/target.pdf at 100 % (not fitted to the page: the tile outline in its middle measures
   48 x 24 mm) and lay it flat in the middle of the table.
2. Take a picture with the camera, or open a photo or a video of it.
   For a wide-angle camera, lay the target near each corner too and take a picture each time:
   the views measure the lens (the grid then bends with the table&apos;s lines).
3. Check the red outline and the grid lie on the table, then name the profile.</source>
        <translation>1. Tulosta calibration/target.pdf 100 %:n koossa (ei sivulle sovitettuna: keskellä olevan laatan ääriviiva on
   48 × 24 mm) ja aseta se tasaisesti pöydän keskelle.
2. Ota kuva kameralla tai avaa siitä otettu valokuva tai video.
   Laajakulmakameralle aseta arkki myös kunkin kulman lähelle ja ota joka kerta kuva:
   kuvista mitataan objektiivin vääristymä (ruudukko kaartuu silloin pöydän linjojen mukana).
3. Tarkista, että punainen ääriviiva ja ruudukko ovat pöydän pinnalla, ja nimeä profiili.</translation>
    </message>
    <message>
        <source>Take a picture</source>
        <translation>Ota kuva</translation>
    </message>
    <message>
        <source>Open a photo or video…</source>
        <translation>Avaa valokuva tai video…</translation>
    </message>
    <message>
        <source>Camera</source>
        <translation>Kamera</translation>
    </message>
    <message>
        <source>Start over</source>
        <translation>Aloita alusta</translation>
    </message>
    <message>
        <source>no picture yet</source>
        <translation>ei vielä kuvaa</translation>
    </message>
    <message>
        <source>kitchen</source>
        <translation>keittiö</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>Tallenna profiili</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nimi</translation>
    </message>
    <message>
        <source>views cleared</source>
        <translation>kuvat poistettu</translation>
    </message>
    <message>
        <source>The target was not found ({seen} of its 6 markers seen): is the whole page in view, lying flat, in focus and lit?</source>
        <translation>Kalibrointiarkkia ei löytynyt (sen 6 merkistä näkyi {seen}): onko koko sivu kuvassa, tasaisena, tarkkana ja valaistuna?</translation>
    </message>
    <message>
        <source>lens corrected (k = {k})</source>
        <translation>objektiivin vääristymä korjattu (k = {k})</translation>
    </message>
    <message>
        <source>no lens distortion measured</source>
        <translation>objektiivin vääristymää ei mitattu</translation>
    </message>
    <message>
        <source>{markers} of 6 markers, fit error {error} mm, {scale} px/mm: a tile will look {w} x {h} px; views: {views}, {lens}</source>
        <translation>merkkejä {markers}/6, sovitusvirhe {error} mm, {scale} px/mm: laatan koko kuvassa {w} × {h} px; kuvia {views}, {lens}</translation>
    </message>
    <message>
        <source>Tiles this small are read poorly: bring the camera closer, or raise its resolution.</source>
        <translation>Näin pienet laatat luetaan huonosti: tuo kamera lähemmäs tai nosta sen tarkkuutta.</translation>
    </message>
    <message>
        <source>camera {number}: no picture (not connected?)</source>
        <translation>kamera {number}: ei kuvaa (onko kamera kytketty?)</translation>
    </message>
    <message>
        <source>A photo or video of the target</source>
        <translation>Valokuva tai video kalibrointiarkista</translation>
    </message>
    <message>
        <source>Images and videos (*.jpg *.jpeg *.png *.webp *.bmp *.mp4 *.avi *.mov *.mkv *.JPG *.JPEG *.PNG *.MP4 *.MOV)</source>
        <translation>Kuvat ja videot (*.jpg *.jpeg *.png *.webp *.bmp *.mp4 *.avi *.mov *.mkv *.JPG *.JPEG *.PNG *.MP4 *.MOV)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Kaikki tiedostot (*)</translation>
    </message>
    <message>
        <source>The target never lay still in this video: lay it still for a second at each place.</source>
        <translation>Kalibrointiarkki ei ollut tällä videolla missään kohdassa paikallaan: pidä se paikallaan sekunnin ajan kussakin kohdassa.</translation>
    </message>
    <message>
        <source>A profile&apos;s name is letters, digits, spaces, - _ and . (not first), up to 60 characters.</source>
        <translation>Profiilin nimessä voi olla kirjaimia, numeroita, välilyöntejä sekä merkit - _ ja . (ei ensimmäisenä), enintään 60 merkkiä.</translation>
    </message>
    <message>
        <source>These pictures are {made}; the camera plays at {play} (Settings: Resolution), another shape, where this profile is not used. Save it all the same?</source>
        <translation>Nämä kuvat ovat {made}; kamera pelaa tarkkuudella {play} (Asetukset: Tarkkuus), erimuotoisilla kuvilla, joilla tätä profiilia ei käytetä. Tallennetaanko silti?</translation>
    </message>
    <message>
        <source>A profile named {name} exists already. Replace it? (A saved match that names it is read through the new one.)</source>
        <translation>Profiili {name} on jo olemassa. Korvataanko se? (Tallennettu ottelu, joka käyttää sitä, luetaan uuden kautta.)</translation>
    </message>
    <message>
        <source>{path}: cannot be read</source>
        <translation>{path}: tiedostoa ei voi lukea</translation>
    </message>
    <message>
        <source>find the target first</source>
        <translation>ota ensin kuva kalibrointiarkista</translation>
    </message>
</context>
<context>
    <name>ClubLink</name>
    <message>
        <source>Club board: not reached ({error}); the match is kept here and sent when it is back</source>
        <translation>Kerhon taulu ei vastaa ({error}); ottelu säilyy täällä ja lähetetään, kun yhteys palaa</translation>
    </message>
    <message>
        <source>Club board: up to date</source>
        <translation>Kerhon taulu on ajan tasalla</translation>
    </message>
    <message>
        <source>The match is saved in the club&apos;s history.</source>
        <translation>Ottelu on tallennettu kerhon historiaan.</translation>
    </message>
    <message>
        <source>Club database: {error}</source>
        <translation>Kerhon tietokanta: {error}</translation>
    </message>
</context>
<context>
    <name>ClubPlayers</name>
    <message>
        <source>Rename a player</source>
        <translation>Pelaajan nimen muutos</translation>
    </message>
    <message>
        <source>{name}&apos;s new name, in every match (a table typing {name} still scores for the player):</source>
        <translation>Pelaajan {name} uusi nimi kaikissa otteluissa (pöydässä nimellä {name} kirjatut pisteet menevät edelleen hänelle):</translation>
    </message>
    <message>
        <source>{new} is already {owner}&apos;s name. If {name} and {owner} are one person, use “Same person as…”.</source>
        <translation>{new} on jo pelaajan {owner} nimi. Jos {name} ja {owner} ovat sama henkilö, valitse ”Sama henkilö kuin…”.</translation>
    </message>
    <message>
        <source>{new} is already {owner}&apos;s name, and {name} and {owner} played in one match: choose another name.</source>
        <translation>{new} on jo pelaajan {owner} nimi, ja {name} ja {owner} ovat pelanneet samassa ottelussa: valitse toinen nimi.</translation>
    </message>
    <message>
        <source>The club cannot keep the name “{new}”.</source>
        <translation>Kerho ei voi tallentaa nimeä ”{new}”.</translation>
    </message>
    <message>
        <source>Same person</source>
        <translation>Sama henkilö</translation>
    </message>
    <message>
        <source>{name} has played with every other player of the club: {name} is none of them.</source>
        <translation>{name} on pelannut samassa ottelussa kaikkien muiden kerhon pelaajien kanssa: {name} ei ole kukaan heistä.</translation>
    </message>
    <message>
        <source>Which player of the club is {name} (a name mistyped at a table, say)?</source>
        <translation>Kuka kerhon pelaajista on {name} (esimerkiksi pöydässä väärin kirjoitettu nimi)?</translation>
    </message>
    <message>
        <source>{name}&apos;s match goes to {other}.</source>
        <translation>Pelaajan {name} ottelu siirtyy pelaajalle {other}.</translation>
    </message>
    <message>
        <source>{name}&apos;s {count} matches go to {other}.</source>
        <translation>Pelaajan {name} {count} ottelua siirtyy pelaajalle {other}.</translation>
    </message>
    <message>
        <source>A table typing {name} scores for {other} from now on. “Separate a name…” on {other}&apos;s page undoes it.</source>
        <translation>Tästä lähtien nimellä {name} kirjatut pisteet menevät pelaajalle {other}. Pelaajan {other} sivun ”Erota nimi…” peruu tämän.</translation>
    </message>
    <message>
        <source>No match of {name} since the rename was typed {other}.</source>
        <translation>Yhtään pelaajan {name} ottelua nimen muutoksen jälkeen ei ole kirjattu nimellä {other}.</translation>
    </message>
    <message>
        <source>No match of {name} was typed {other}.</source>
        <translation>Yhtään pelaajan {name} ottelua ei ole kirjattu nimellä {other}.</translation>
    </message>
    <message>
        <source>1 match typed {other} goes from {name} to a player {other}.</source>
        <translation>Yksi nimellä {other} kirjattu ottelu siirtyy pelaajalta {name} pelaajalle {other}.</translation>
    </message>
    <message>
        <source>{count} matches typed {other} go from {name} to a player {other}.</source>
        <translation>{count} nimellä {other} kirjattua ottelua siirtyy pelaajalta {name} pelaajalle {other}.</translation>
    </message>
    <message>
        <source>A table typing {other} plays as {other} from now on.</source>
        <translation>Tästä lähtien {other} on pöydissä oma pelaajansa.</translation>
    </message>
    <message>
        <source>Separate a name</source>
        <translation>Nimen erottaminen</translation>
    </message>
    <message>
        <source>Which of {name}&apos;s other names is someone else? The matches typed with it become that player&apos;s:</source>
        <translation>Mikä pelaajan {name} muista nimistä onkin toinen henkilö? Sillä nimellä kirjatut ottelut siirtyvät hänelle:</translation>
    </message>
    <message>
        <source>Club</source>
        <translation>Kerho</translation>
    </message>
</context>
<context>
    <name>ClubWindow</name>
    <message>
        <source> (won)</source>
        <translation> (voitti)</translation>
    </message>
    <message>
        <source>Club</source>
        <translation>Kerho</translation>
    </message>
    <message>
        <source>No club file yet: {file}. It is made when the first match is saved into the club.</source>
        <translation>Kerhotiedostoa ei ole vielä: {file}. Se luodaan, kun ensimmäinen ottelu tallennetaan kerhoon.</translation>
    </message>
    <message>
        <source>this computer&apos;s club file</source>
        <translation>tämän tietokoneen kerhotiedosto</translation>
    </message>
    <message>
        <source>Tonight</source>
        <translation>Tänä iltana</translation>
    </message>
    <message>
        <source>player</source>
        <translation>pelaaja</translation>
    </message>
    <message>
        <source>matches</source>
        <translation>otteluita</translation>
    </message>
    <message>
        <source>wins</source>
        <translation>voittoja</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>jaettuja</translation>
    </message>
    <message>
        <source>for</source>
        <translation>omat pisteet</translation>
    </message>
    <message>
        <source>against</source>
        <translation>vastustajan</translation>
    </message>
    <message>
        <source>per move</source>
        <translation>per siirto</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Muuta nimeä…</translation>
    </message>
    <message>
        <source>Name the player otherwise in every match</source>
        <translation>Anna pelaajalle toinen nimi kaikissa otteluissa</translation>
    </message>
    <message>
        <source>Same person as…</source>
        <translation>Sama henkilö kuin…</translation>
    </message>
    <message>
        <source>A name mistyped at a table: its matches are another player&apos;s</source>
        <translation>Pöydässä väärin kirjoitettu nimi: sen ottelut ovat toisen pelaajan</translation>
    </message>
    <message>
        <source>Separate a name…</source>
        <translation>Erota nimi…</translation>
    </message>
    <message>
        <source>One of the player&apos;s other names is someone else: the matches typed with it go back to it</source>
        <translation>Yksi pelaajan muista nimistä onkin toinen henkilö: sillä nimellä kirjatut ottelut palaavat hänelle</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>Peli</translation>
    </message>
    <message>
        <source>{name}: 1 match of {game}, {wins} won</source>
        <translation>{name}: 1 ottelu ({game}), voittoja {wins}</translation>
    </message>
    <message>
        <source>{name}: {count} matches of {game}, {wins} won</source>
        <translation>{name}: {count} ottelua ({game}), voittoja {wins}</translation>
    </message>
    <message>
        <source> · also typed as {names}</source>
        <translation> · myös nimillä {names}</translation>
    </message>
    <message>
        <source> · also typed as {name}</source>
        <translation> · myös nimellä {name}</translation>
    </message>
    <message>
        <source>Standings</source>
        <translation>Sarjataulukko</translation>
    </message>
    <message>
        <source>Player</source>
        <translation>Pelaaja</translation>
    </message>
    <message>
        <source> (playing)</source>
        <translation> (kesken)</translation>
    </message>
    <message>
        <source>No match in the club&apos;s history today yet.</source>
        <translation>Kerhon historiassa ei ole vielä tämän päivän otteluita.</translation>
    </message>
</context>
<context>
    <name>ConfirmDialog</name>
    <message>
        <source>Please confirm</source>
        <translation>Vahvista siirto</translation>
    </message>
    <message>
        <source>The picture shows the table as the camera saw it: what it asks about is ringed in magenta, tiles read unsurely are framed in orange.</source>
        <translation>Kuvassa on pöytä sellaisena kuin kamera sen näki: se, mitä kysytään, on ympyröity magentalla, ja epävarmasti luetut laatat on kehystetty oranssilla.</translation>
    </message>
    <message>
        <source>The picture shows the table as the camera saw it: tiles read unsurely are framed in orange.</source>
        <translation>Kuvassa on pöytä sellaisena kuin kamera sen näki: epävarmasti luetut laatat on kehystetty oranssilla.</translation>
    </message>
    <message>
        <source>In the camera&apos;s picture the tiles read unsurely are framed in orange.</source>
        <translation>Kameran kuvassa epävarmasti luetut laatat on kehystetty oranssilla.</translation>
    </message>
    <message>
        <source>A place such as (412, 200) is a pixel of the camera&apos;s picture.</source>
        <translation>Merkintä (412, 200) tarkoittaa kameran kuvan pikseliä.</translation>
    </message>
    <message>
        <source>The camera is not sure what happened. {where} Pick what was played:</source>
        <translation>Kamera ei ole varma, mitä tapahtui. {where} Valitse, mitä pelattiin:</translation>
    </message>
    <message>
        <source>The camera cannot tell what happened. {where} Enter what was played with Play…, Draw…, Pass / knock… or Round end… under the moves list -- or wait: the camera reads the table again as play goes on.</source>
        <translation>Kamera ei pysty sanomaan, mitä tapahtui. {where} Syötä pelattu siirto siirtoluettelon alla olevilla painikkeilla Pelaa…, Nosta…, Ohita / koputa… tai Kierroksen loppu… – tai odota: kamera lukee pöydän uudelleen pelin jatkuessa.</translation>
    </message>
    <message>
        <source>Taken now:</source>
        <translation>Nyt tulkittu:</translation>
    </message>
    <message>
        <source>Not now (fix it by hand)</source>
        <translation>Ei nyt (korjaan käsin)</translation>
    </message>
    <message>
        <source>Keep it as taken</source>
        <translation>Pidä tulkinta</translation>
    </message>
</context>
<context>
    <name>CribbageStartDialog</name>
    <message>
        <source>Cribbage</source>
        <translation>Cribbage</translation>
    </message>
    <message>
        <source>Go on with an unfinished game</source>
        <translation>Jatka kesken jäänyttä peliä</translation>
    </message>
    <message>
        <source>{players}, to {target}: {scores} (last saved {when})</source>
        <translation>{players}, {target} pisteeseen: {scores} (tallennettu viimeksi {when})</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Jatka</translation>
    </message>
    <message>
        <source>A new game</source>
        <translation>Uusi peli</translation>
    </message>
    <message>
        <source>Players</source>
        <translation>Pelaajat</translation>
    </message>
    <message>
        <source>2 to 4 names in seating order, e.g. Ann, Ben</source>
        <translation>2–4 nimeä istumajärjestyksessä, esim. Ann, Ben</translation>
    </message>
    <message>
        <source>Game to</source>
        <translation>Peli</translation>
    </message>
    <message>
        <source>121 points (a standard game)</source>
        <translation>121 pisteeseen (tavallinen peli)</translation>
    </message>
    <message>
        <source>61 points (a short game)</source>
        <translation>61 pisteeseen (lyhyt peli)</translation>
    </message>
    <message>
        <source>Muggins: points a player misses in the show go to the next player</source>
        <translation>Muggins: pisteet, jotka pelaaja jättää laskematta, saa seuraava pelaaja</translation>
    </message>
    <message>
        <source>Start the game</source>
        <translation>Aloita peli</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Peru</translation>
    </message>
</context>
<context>
    <name>Events</name>
    <message>
        <source>{name} plays {tile} on {at}</source>
        <translation>{name} pelaa {tile} laatan {at} jatkoksi</translation>
    </message>
    <message>
        <source>{name} plays {tile}</source>
        <translation>{name} pelaa {tile}</translation>
    </message>
    <message>
        <source>{name} starts the round</source>
        <translation>{name} aloittaa kierroksen</translation>
    </message>
    <message>
        <source>{name} draws 1</source>
        <translation>{name} nostaa yhden laatan</translation>
    </message>
    <message>
        <source>{name} draws {count}</source>
        <translation>{name} nostaa {count} laattaa</translation>
    </message>
    <message>
        <source>Scores then: {scores}; {name} to play</source>
        <translation>Pisteet tämän jälkeen: {scores}; vuorossa {name}</translation>
    </message>
    <message>
        <source>Scores then: {scores}; the round is over</source>
        <translation>Pisteet tämän jälkeen: {scores}; kierros on ohi</translation>
    </message>
    <message>
        <source>{name} passes</source>
        <translation>{name} ohittaa vuoronsa</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no tiles left in a hand</comment>
        <translation>ei laattoja</translation>
    </message>
    <message>
        <source>hands left: {hands}</source>
        <translation>jäljelle jääneet kädet: {hands}</translation>
    </message>
    <message>
        <source>Tiles in hand then: {held}</source>
        <translation>Laattoja kädessä tämän jälkeen: {held}</translation>
    </message>
    <message>
        <source>{name} knocks</source>
        <translation>{name} koputtaa</translation>
    </message>
    <message>
        <source>{name} draws</source>
        <translation>{name} nostaa</translation>
    </message>
    <message>
        <source>(on turn)</source>
        <translation>(vuorossa)</translation>
    </message>
</context>
<context>
    <name>HandsDialog</name>
    <message>
        <source>{text}: tiles are pairs of numbers from 0 to 6, like 1 2, 3 4</source>
        <translation>{text}: anna laatat lukupareina väliltä 0–6, esimerkiksi 1 2, 3 4</translation>
    </message>
    <message>
        <source>Round end: the hands left</source>
        <translation>Kierroksen loppu: jäljelle jääneet kädet</translation>
    </message>
    <message>
        <source>The hands left in round {round}: type the tiles each player still holds, each tile as its two numbers of pips. A hand played out stays empty.</source>
        <translation>Kierroksen {round} jäljellä olevat kädet: kirjoita laatat, jotka kullakin pelaajalla on vielä kädessään, kukin laatta kahtena silmälukuna. Tyhjäksi pelatun käden kenttä jää tyhjäksi.</translation>
    </message>
    <message>
        <source>The round is still in play: the boneyard holds one tile by the moves entered. It ends here only if the hands hold the draw that was not entered.</source>
        <translation>Kierros on yhä käynnissä: syötettyjen siirtojen mukaan nostokasassa on yksi laatta. Kierros päättyy tähän vain, jos käsissä on nosto, jota ei syötetty.</translation>
    </message>
    <message>
        <source>The round is still in play: the boneyard holds {count} tiles by the moves entered. It ends here only if the hands hold draws that were not entered.</source>
        <translation>Kierros on yhä käynnissä: syötettyjen siirtojen mukaan nostokasassa on {count} laattaa. Kierros päättyy tähän vain, jos käsissä on nostoja, joita ei syötetty.</translation>
    </message>
    <message>
        <source>1 tile, e.g. 3 4</source>
        <translation>1 laatta, esim. 3 4</translation>
    </message>
    <message>
        <source>{count} tiles, e.g. 1 2, 3 4</source>
        <translation>{count} laattaa, esim. 1 2, 3 4</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no tiles left in a hand</comment>
        <translation>ei laattoja</translation>
    </message>
</context>
<context>
    <name>LiveView</name>
    <message>
        <source>waiting for a still table</source>
        <translation>odotetaan liikkumatonta pöytää</translation>
    </message>
    <message>
        <source>reading</source>
        <translation>luetaan pöytää</translation>
    </message>
    <message>
        <source>needs your confirmation</source>
        <translation>odottaa vahvistustasi</translation>
    </message>
    <message>
        <source>match over</source>
        <translation>ottelu päättyi</translation>
    </message>
    <message>
        <source>the recording ended</source>
        <translation>tallenne päättyi</translation>
    </message>
    <message>
        <source>the camera stopped</source>
        <translation>kamera pysähtyi</translation>
    </message>
    <message>
        <source>no picture: opening the camera again…</source>
        <translation>ei kuvaa: kameraa avataan uudelleen…</translation>
    </message>
    <message>
        <source>reviewing the recording</source>
        <translation>tallennetta katsellaan</translation>
    </message>
    <message>
        <source>paused: the moves are not read</source>
        <translation>tauolla: siirtoja ei lueta</translation>
    </message>
    <message>
        <source>no camera: moves entered by hand</source>
        <translation>ei kameraa: siirrot syötetään käsin</translation>
    </message>
    <message>
        <source>in the end sum</source>
        <translation>päiden summassa</translation>
    </message>
    <message>
        <source>read unsurely</source>
        <translation>luettu epävarmasti</translation>
    </message>
    <message>
        <source>the other tiles</source>
        <translation>muut laatat</translation>
    </message>
    <message>
        <source>face down</source>
        <translation>selkäpuoli ylöspäin</translation>
    </message>
    <message>
        <source>Enter each move with the buttons at the right or the Play menu (those the match allows now are lit); every move is scored and said aloud.</source>
        <translation>Syötä jokainen siirto oikealla olevilla painikkeilla tai Siirrot-valikosta (ottelussa nyt sallitut ovat käytettävissä); jokainen siirto pisteytetään ja sanotaan ääneen.</translation>
    </message>
    <message>
        <source>end sum {sum}</source>
        <extracomment>The sum of the scoring ends on the table, shown over the picture.</extracomment>
        <translation>päiden summa {sum}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Speech: {engine}</source>
        <translation>Puhe: {engine}</translation>
    </message>
    <message>
        <source>Domino table scorer — {game}: {players}</source>
        <translation>Dominopöydän pistelaskija — {game}: {players}</translation>
    </message>
    <message>
        <source>Moves (click one to see the board then)</source>
        <translation>Siirrot (napsauta siirtoa nähdäksesi pöydän sillä hetkellä)</translation>
    </message>
    <message>
        <source>Pass / knock…</source>
        <translation>Ohita / koputa…</translation>
    </message>
    <message>
        <source>Draw…</source>
        <translation>Nosta…</translation>
    </message>
    <message>
        <source>Play…</source>
        <translation>Pelaa…</translation>
    </message>
    <message>
        <source>Round end…</source>
        <translation>Kierroksen loppu…</translation>
    </message>
    <message>
        <source>Mute</source>
        <translation>Äänetön</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Ottelu</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Kumoa</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Tee uudelleen</translation>
    </message>
    <message>
        <source>Club</source>
        <translation>Kerho</translation>
    </message>
    <message>
        <source> Language </source>
        <translation> Kieli </translation>
    </message>
    <message>
        <source>&amp;Match</source>
        <translation>&amp;Ottelu</translation>
    </message>
    <message>
        <source>&amp;New match…</source>
        <translation>&amp;Uusi ottelu…</translation>
    </message>
    <message>
        <source>&amp;Open a recording…</source>
        <translation>&amp;Avaa tallenne…</translation>
    </message>
    <message>
        <source>&amp;Resume a saved match…</source>
        <translation>&amp;Jatka tallennettua ottelua…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Lopeta</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>&amp;Siirrot</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Tauko</translation>
    </message>
    <message>
        <source>Start the &amp;next round…</source>
        <translation>Aloita &amp;seuraava kierros…</translation>
    </message>
    <message>
        <source>P&amp;ass / knock…</source>
        <translation>O&amp;hita / koputa…</translation>
    </message>
    <message>
        <source>&amp;Draw…</source>
        <translation>&amp;Nosta…</translation>
    </message>
    <message>
        <source>P&amp;lay a tile…</source>
        <translation>Pelaa &amp;laatta…</translation>
    </message>
    <message>
        <source>Round &amp;end: the hands…</source>
        <translation>&amp;Kierroksen loppu: kädet…</translation>
    </message>
    <message>
        <source>The camera&apos;s &amp;question…</source>
        <translation>Kameran &amp;kysymys…</translation>
    </message>
    <message>
        <source>Another &amp;order for the tiles taken…</source>
        <translation>Toinen &amp;järjestys tulkituille laatoille…</translation>
    </message>
    <message>
        <source>&amp;Try the camera again</source>
        <translation>&amp;Yritä kameraa uudelleen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Näytä</translation>
    </message>
    <message>
        <source>&amp;Table mode (full screen, large scores)</source>
        <translation>&amp;Pöytätila (koko näyttö, isot pisteet)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Asetukset…</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Kieli</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>O&amp;hje</translation>
    </message>
    <message>
        <source>&amp;How to use…</source>
        <translation>&amp;Käyttöohje…</translation>
    </message>
    <message>
        <source>&amp;About…</source>
        <translation>&amp;Tietoja…</translation>
    </message>
    <message>
        <source>Undone: {move} (Redo brings it back)</source>
        <translation>Kumottu: {move} (Tee uudelleen palauttaa sen)</translation>
    </message>
    <message>
        <source>Withdrawn: {count} moves, from “{move}” on (Redo brings them back one by one)</source>
        <translation>Kumottu {count} siirtoa, alkaen siirrosta ”{move}” (Tee uudelleen palauttaa ne yksi kerrallaan)</translation>
    </message>
    <message>
        <source>Redone: {move}</source>
        <translation>Tehty uudelleen: {move}</translation>
    </message>
    <message>
        <source>The camera has stopped: the moves are not being read.</source>
        <translation>Kamera on pysähtynyt: siirtoja ei lueta.</translation>
    </message>
    <message>
        <source>The camera over the table reads every tile; each move is scored and said aloud.

Seats: players are given clockwise from the seat nearest the camera.
When the camera is unsure it asks: pick the right reading, or fix it by hand. A question put off (&quot;Not now&quot;) opens again with Q, or a click on the red &quot;needs your confirmation&quot;; a recording waits meanwhile.
Tiles laid while the camera saw nothing, their order unanswered, are taken in the likeliest order: the orange &quot;Order taken unanswered&quot; button (O) offers the other orders the moves since fit, each with the scores it leaves, until the next round begins.
A tile read wrong: click it in the picture and type its pips (e.g. 3 4); the moves since are scored again with it.
With no camera the picture draws the round&apos;s layout as the moves are entered: the tiles at the scoring ends outlined red, each spinner with a dot at its centre.

Play menu (or the buttons): a pass or a draw for any player, a tile played by hand (pick the tile, then the end it goes on), the hands at a round&apos;s end, undo and redo.
Space pauses a recording; a click on its timeline shows that moment (the match is not changed); &quot;Score again from here&quot; withdraws the later moves (Redo brings them back). An undo while a recording plays pauses it till you enter the move, correct a tile or press Play.
A camera unplugged, or one not streaming yet as a match starts or is resumed, is opened again by itself for 30 s; after that Play ▸ Try the camera again (meanwhile enter the moves by hand).
F11: table mode, the scores large for the whole table.

Scoring: after each tile the open ends of the layout are added up (a double at an end counts both halves); a multiple of 5 scores -- Horse Race a point for each 5, to 61; Seven Rocks the sum itself, to 250. A player who cannot place a tile draws (Horse Race), else passes (Seven Rocks: knocks). When a hand is emptied, or nobody can play, Round end… takes the hands left: Horse Race credits the winner with the others&apos; pips rounded to 5; Seven Rocks takes each hand, rounded to 5, off its pair.

Every move is saved at once in the match&apos;s session file; after a crash the start screen offers to go on.</source>
        <translation>Pöydän yllä oleva kamera lukee jokaisen laatan; jokainen siirto pisteytetään ja sanotaan ääneen.

Paikat: pelaajat annetaan myötäpäivään kameraa lähimmästä paikasta alkaen.
Kun kamera on epävarma, se kysyy: valitse oikea tulkinta tai korjaa siirto käsin. Myöhemmäksi siirretty kysymys (&quot;Ei nyt&quot;) avautuu uudelleen Q-näppäimellä tai napsauttamalla punaista &quot;odottaa vahvistustasi&quot;; tallenne odottaa sillä välin.
Laatat, jotka pelattiin kameran näkemättä ja joiden järjestykseen ei vastattu, tulkitaan todennäköisimmässä järjestyksessä: oranssi &quot;Järjestys tulkittu ilman vastausta&quot; -painike (O) tarjoaa ne muut järjestykset, joihin sen jälkeen pelatut siirrot sopivat, kunkin jättämine pisteineen, seuraavan kierroksen alkuun asti.
Väärin luettu laatta: napsauta sitä kuvassa ja kirjoita sen silmäluvut (esim. 3 4); sen jälkeiset siirrot pisteytetään uudelleen korjatulla laatalla.
Ilman kameraa kuva piirtää kierroksen pöydän sitä mukaa kuin siirrot syötetään: pisteisiin laskettavien päiden laatat punaisin reunuksin, jokaisen spinnerin keskellä nasta.

Siirrot-valikko (tai painikkeet): vuoron ohitus tai nosto kenelle tahansa pelaajalle, käsin syötetty laatta (valitse laatta ja sitten pää, johon se pelataan), kädet kierroksen lopussa, kumoaminen ja uudelleen tekeminen.
Välilyönti pysäyttää tallenteen; napsautus aikajanalla näyttää sen hetken (ottelu ei muutu); &quot;Pisteytä uudelleen tästä&quot; kumoaa myöhemmät siirrot (Tee uudelleen palauttaa ne). Kumoaminen tallenteen toistuessa pysäyttää sen, kunnes syötät siirron, korjaat laatan tai painat Toista.
Irrotettua kameraa, tai kameraa, joka ei vielä lähetä kuvaa ottelun alkaessa tai jatkuessa, yritetään avata itsestään 30 sekunnin ajan; sen jälkeen Siirrot ▸ Yritä kameraa uudelleen (syötä siirrot sillä välin käsin).
F11: pöytätila, pisteet isoina koko pöydän nähtäviksi.

Pisteet: jokaisen laatan jälkeen pelikuvion avoimet päät lasketaan yhteen (päässä oleva tupla lasketaan kummankin puoliskonsa mukaan); viidellä jaollinen summa tuo pisteitä -- Horse Racessa piste jokaisesta viidestä, 61:een asti; Seven Rocksissa summa sellaisenaan, 250:een asti. Pelaaja, joka ei voi pelata laattaa, nostaa (Horse Race), muuten ohittaa vuoronsa (Seven Rocks: koputtaa). Kun käsi tyhjenee tai kukaan ei voi pelata, Kierroksen loppu… kysyy jäljelle jääneet kädet: Horse Racessa voittaja saa muiden silmät viiteen pyöristettyinä; Seven Rocksissa kunkin käsi viiteen pyöristettynä vähennetään sen parin pisteistä.

Jokainen siirto tallennetaan heti ottelun istuntotiedostoon; kaatumisen jälkeen aloitusnäkymä tarjoaa ottelun jatkamista.</translation>
    </message>
</context>
<context>
    <name>MatchCorrections</name>
    <message>
        <source>The camera asks: please look at the screen.</source>
        <translation>Kamera kysyy: katso näyttöä.</translation>
    </message>
    <message>
        <source>The question is put off: Play ▸ The camera&apos;s question… (Q), or a click on “needs your confirmation”, opens it again while the match has not moved on.</source>
        <translation>Kysymys on siirretty myöhemmäksi: Siirrot ▸ Kameran kysymys… (Q) tai napsautus kohtaan ”odottaa vahvistustasi” avaa sen uudelleen, kunnes ottelu etenee.</translation>
    </message>
    <message>
        <source>The order of those tiles can no longer be changed.</source>
        <translation>Noiden laattojen järjestystä ei voi enää muuttaa.</translation>
    </message>
    <message>
        <source>Not possible</source>
        <translation>Ei mahdollista</translation>
    </message>
    <message>
        <source>A pass was entered for a player who could play: Undo takes the passes back, one at a time; then enter the play.</source>
        <translation>Ohitus syötettiin pelaajalle, joka olisi voinut pelata: Kumoa peruu ohitukset yksi kerrallaan; syötä sitten pelattu laatta.</translation>
    </message>
    <message>
        <source>A knock was entered for a player who could play: Undo takes the knocks back, one at a time; then enter the play.</source>
        <translation>Koputus syötettiin pelaajalle, joka olisi voinut pelata: Kumoa peruu koputukset yksi kerrallaan; syötä sitten pelattu laatta.</translation>
    </message>
    <message>
        <source>Correct the tile</source>
        <translation>Korjaa laatta</translation>
    </message>
    <message>
        <source>Its pips (two numbers 0-6):</source>
        <translation>Laatan silmäluvut (kaksi lukua 0–6):</translation>
    </message>
    <message>
        <source>Not a tile</source>
        <translation>Ei laatta</translation>
    </message>
    <message>
        <source>{text} is not a tile: give two numbers from 0 to 6, like 3 4</source>
        <translation>{text} ei ole laatta: anna kaksi lukua väliltä 0–6, esimerkiksi 3 4</translation>
    </message>
    <message>
        <source>No pass while the boneyard is not empty ({count} left): a player who cannot play draws.</source>
        <translation>Ohittaa ei voi, kun nostokasa ei ole tyhjä ({count} jäljellä): pelaaja, joka ei voi pelata, nostaa.</translation>
    </message>
    <message>
        <source>Round blocked?</source>
        <translation>Kierros tukossa?</translation>
    </message>
    <message>
        <source>These hands hold fewer tiles than the camera counted drawn: {changes}. Take it so? (No: check the hands.)</source>
        <translation>Näissä käsissä on vähemmän laattoja kuin kamera laski nostetun: {changes}. Tulkitaanko niin? (Ei: tarkista kädet.)</translation>
    </message>
    <message>
        <source>Fewer tiles</source>
        <translation>Vähemmän laattoja</translation>
    </message>
    <message>
        <source>With this pass nobody can play: round {round} is blocked, and the hands left are counted. Is that so?</source>
        <translation>Tämän ohituksen jälkeen kukaan ei voi pelata: kierros {round} on tukossa, ja jäljellä olevat kädet lasketaan. Pitääkö paikkansa?</translation>
    </message>
    <message>
        <source>The camera did not see in which order these tiles were laid and took the order marked “Taken now”. If they were played in another, pick it (until the next round begins): the moves since are scored again.</source>
        <translation>Kamera ei nähnyt, missä järjestyksessä nämä laatat pelattiin, ja tulkitsi ne kohdan ”Nyt tulkittu” järjestyksessä. Jos ne pelattiin toisin, valitse oikea (seuraavan kierroksen alkuun asti): siirrot siitä lähtien pisteytetään uudelleen.</translation>
    </message>
    <message>
        <source>Order taken unanswered: change it… (O)</source>
        <translation>Järjestys tulkittu ilman vastausta: muuta… (O)</translation>
    </message>
    <message>
        <source>With this knock nobody can play: round {round} is blocked, and the hands left are counted. Is that so?</source>
        <translation>Tämän koputuksen jälkeen kukaan ei voi pelata: kierros {round} on tukossa, ja jäljellä olevat kädet lasketaan. Pitääkö paikkansa?</translation>
    </message>
    <message>
        <source>No round is being played.</source>
        <translation>Kierrosta ei ole käynnissä.</translation>
    </message>
    <message>
        <source>Not the hands</source>
        <translation>Kädet eivät kelpaa</translation>
    </message>
</context>
<context>
    <name>PipelineWorker</name>
    <message>
        <source>A fault in the program: this was not done. ({error})</source>
        <translation>Ohjelman virhe: tätä ei tehty. ({error})</translation>
    </message>
</context>
<context>
    <name>Places</name>
    <message>
        <source>top left</source>
        <translation>ylhäällä vasemmalla</translation>
    </message>
    <message>
        <source>top</source>
        <translation>ylhäällä</translation>
    </message>
    <message>
        <source>top right</source>
        <translation>ylhäällä oikealla</translation>
    </message>
    <message>
        <source>left</source>
        <translation>vasemmalla</translation>
    </message>
    <message>
        <source>middle</source>
        <translation>keskellä</translation>
    </message>
    <message>
        <source>right</source>
        <translation>oikealla</translation>
    </message>
    <message>
        <source>bottom left</source>
        <translation>alhaalla vasemmalla</translation>
    </message>
    <message>
        <source>bottom</source>
        <translation>alhaalla</translation>
    </message>
    <message>
        <source>bottom right</source>
        <translation>alhaalla oikealla</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>Kansio</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>&amp;Kansio:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>Tiedosto&amp;tyyppi:</translation>
    </message>
</context>
<context>
    <name>RecordingControls</name>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} s</translation>
    </message>
    <message>
        <source>Paused: the camera&apos;s picture is shown, but no move is read till Play ▸ Pause again; what is laid meanwhile is read then.</source>
        <translation>Tauolla: kameran kuva näkyy, mutta siirtoja ei lueta ennen kuin Siirrot ▸ Tauko valitaan uudelleen; sillä välin pelatut laatat luetaan silloin.</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Toista</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Tauko</translation>
    </message>
    <message>
        <source>Paused: corrections, undo and redo still apply at once.</source>
        <translation>Tauko: korjaukset, kumoaminen ja uudelleen tekeminen tulevat voimaan heti.</translation>
    </message>
    <message>
        <source>Playing on with the question open: the camera may settle it on its best reading as play goes on; till then an answer picked counts.</source>
        <translation>Jatketaan kysymyksen ollessa auki: kamera voi ratkaista sen parhaan lukemansa mukaan pelin jatkuessa; siihen asti valittu vastaus pätee.</translation>
    </message>
    <message>
        <source>Paused for the question: the recording goes on once it is answered.</source>
        <translation>Pysäytetty kysymyksen ajaksi: tallenne jatkuu, kun kysymykseen on vastattu.</translation>
    </message>
    <message>
        <source>The question is put off and the recording waits: enter the move with the buttons, or click a tile to correct it; Play lets the camera read on. Q, or a click on “needs your confirmation”, opens the question again.</source>
        <translation>Kysymys on siirretty myöhemmäksi, ja tallenne odottaa: syötä siirto painikkeilla tai korjaa laatta napsauttamalla sitä; Toista antaa kameran jatkaa lukemista. Q tai napsautus kohtaan ”odottaa vahvistustasi” avaa kysymyksen uudelleen.</translation>
    </message>
    <message>
        <source>Paused after the undo: enter the move as it was, or click a tile to correct it; Play reads the table again as it is.</source>
        <translation>Pysäytetty kumoamisen jälkeen: anna siirto sellaisena kuin se oli, tai korjaa laatta napsauttamalla sitä; Toista lukee pöydän uudelleen sellaisena kuin se on.</translation>
    </message>
    <message>
        <source>Scoring stopped by a fault in the program. What was scored is kept; corrections and undo still work. ({error})</source>
        <translation>Pisteytys pysähtyi ohjelman virheeseen. Pisteytetty säilyy; korjaukset ja kumoaminen toimivat yhä. ({error})</translation>
    </message>
    <message>
        <source>Scoring stopped: {error}. What was scored is kept; corrections and undo still work.</source>
        <translation>Pisteytys pysähtyi: {error}. Pisteytetty säilyy; korjaukset ja kumoaminen toimivat yhä.</translation>
    </message>
    <message>
        <source>The camera stopped: once it is back, Play ▸ Try the camera again, or a click on “the camera stopped”; what was scored is kept ({error}).</source>
        <translation>Kamera pysähtyi: kun se on taas paikallaan, Siirrot ▸ Yritä kameraa uudelleen tai napsautus kohtaan ”kamera pysähtyi”; pisteytetty säilyy ({error}).</translation>
    </message>
    <message>
        <source>The recording stopped: {error}. What was scored is kept; corrections, undo and review still work.</source>
        <translation>Tallenne katkesi: {error}. Pisteytetty säilyy; korjaukset, kumoaminen ja tallenteen selaaminen toimivat yhä.</translation>
    </message>
    <message>
        <source>Reviewing {seconds} s: {scores} (move {count} of {total})</source>
        <translation>Katsotaan kohtaa {seconds} s: {scores} (siirto {count}/{total})</translation>
    </message>
    <message>
        <source>Live again.</source>
        <translation>Taas nykyhetkessä.</translation>
    </message>
    <message>
        <source>Withdraw the move after {seconds} s and score the recording again from there?

It stays in the session log as undone; Redo brings it back until the recording scores a new move.</source>
        <translation>Kumotaanko kohdan {seconds} s jälkeinen siirto ja pisteytetään tallenne uudelleen siitä alkaen?

Se jää istuntolokiin kumottuna; Tee uudelleen palauttaa sen, kunnes tallenteesta pisteytetään uusi siirto.</translation>
    </message>
    <message>
        <source>Withdraw the {count} moves after {seconds} s and score the recording again from there?

They stay in the session log as undone; Redo brings them back until the recording scores a new move.</source>
        <translation>Kumotaanko {count} siirtoa kohdan {seconds} s jälkeen ja pisteytetään tallenne uudelleen siitä alkaen?

Ne jäävät istuntolokiin kumottuina; Tee uudelleen palauttaa ne, kunnes tallenteesta pisteytetään uusi siirto.</translation>
    </message>
    <message>
        <source>Score again from here</source>
        <translation>Pisteytä uudelleen tästä</translation>
    </message>
    <message>
        <source>The camera&apos;s picture is back.</source>
        <translation>Kameran kuva on taas näkyvissä.</translation>
    </message>
    <message>
        <source>No picture from the camera: wait, it is being opened again.</source>
        <translation>Kamerasta ei tule kuvaa: odottakaa, sitä avataan uudelleen.</translation>
    </message>
    <message>
        <source>Opening the camera again…</source>
        <translation>Avataan kamera uudelleen…</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Tallenne</translation>
    </message>
    <message>
        <source>Back to live</source>
        <translation>Takaisin nykyhetkeen</translation>
    </message>
    <message>
        <source>Score again from here…</source>
        <translation>Pisteytä uudelleen tästä…</translation>
    </message>
    <message>
        <source>Scored again as before: {scores}</source>
        <translation>Pisteytetty uudelleen kuten ennen: {scores}</translation>
    </message>
</context>
<context>
    <name>ResultsChart</name>
    <message>
        <source>no matches yet</source>
        <translation>ei vielä otteluita</translation>
    </message>
    <message>
        <source>margin over the best opponent, 1 match (±{top})</source>
        <translation>ero parhaaseen vastustajaan, 1 ottelu (±{top})</translation>
    </message>
    <message>
        <source>margin over the best opponent, {count} matches (±{top})</source>
        <translation>ero parhaaseen vastustajaan, {count} ottelua (±{top})</translation>
    </message>
</context>
<context>
    <name>Scoreboard</name>
    <message>
        <source>{game}: first to {target}</source>
        <translation>{game}: ensin {target} pisteeseen</translation>
    </message>
    <message>
        <source>{game}: first to {target} (5 a hole)</source>
        <translation>{game}: ensin {target} pisteeseen (reikä = 5 pistettä)</translation>
    </message>
    <message>
        <source>The table then</source>
        <translation>Pöytä silloin</translation>
    </message>
    <message>
        <source>End sum {sum}</source>
        <translation>Päiden summa {sum}</translation>
    </message>
    <message>
        <source>No tiles on the table</source>
        <translation>Pöydällä ei ole laattoja</translation>
    </message>
    <message>
        <source>After: {move}
{sums}.</source>
        <translation>Siirron jälkeen: {move}
{sums}.</translation>
    </message>
    <message>
        <source>After: {move}
{sums}. Scores: {scores}.</source>
        <translation>Siirron jälkeen: {move}
{sums}. Pisteet: {scores}.</translation>
    </message>
    <message>
        <source>Review this moment</source>
        <translation>Katso tätä hetkeä</translation>
    </message>
    <message>
        <source>The recording and the match as they stood then; from there, Score again from here.</source>
        <translation>Tallenne ja ottelu sellaisina kuin ne olivat silloin; sieltä voi pisteyttää uudelleen tästä.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Sulje</translation>
    </message>
</context>
<context>
    <name>Sentences</name>
    <message>
        <source>{tile} at {place}</source>
        <translation>{tile} {place}</translation>
    </message>
    <message>
        <source>pips do not match at a join: {tile} shows {value} where {other} shows {other_value}</source>
        <translation>silmäluvut eivät täsmää liitoksessa: {tile} näyttää {value}, mutta {other} näyttää {other_value}</translation>
    </message>
    <message>
        <source>{tile} was on the table and is not seen in the layout now (moved, covered or taken away)</source>
        <translation>{tile} oli pöydällä, mutta ei näy nyt pelikuviossa (siirretty, peitetty tai otettu pois)</translation>
    </message>
    <message>
        <source>{count} tiles appeared on an empty table ({tiles}): the opening tile cannot be told</source>
        <translation>tyhjälle pöydälle ilmestyi {count} laattaa ({tiles}): aloituslaattaa ei voi päätellä</translation>
    </message>
    <message>
        <source>{tile} cannot be where it lies: {why}</source>
        <translation>{tile} ei voi olla siinä, missä se on: {why}</translation>
    </message>
    <message>
        <source>{tile} is new but not joined to the layout where a tile may go</source>
        <translation>{tile} on uusi, mutta ei liity pelikuvioon kohdassa, johon laatan voi pelata</translation>
    </message>
    <message>
        <source>the tile at {place} read as {read} is taken as {taken}: so the table fits the board before</source>
        <translation>laatta {place}, luettu {read}, tulkitaan {taken}: näin pöytä sopii edelliseen tilanteeseen</translation>
    </message>
    <message>
        <source>the box at {place} read as {read} is left out: it overlaps another, and only without it does the layout fit together</source>
        <translation>laatikko {place}, luettu {read}, jätetään pois: se on toisen päällä, ja vain ilman sitä pelikuvio sopii yhteen</translation>
    </message>
    <message>
        <source>the tile at {place} read as {read} is taken as {taken}: so the layout fits together</source>
        <translation>laatta {place}, luettu {read}, tulkitaan {taken}: näin pelikuvio sopii yhteen</translation>
    </message>
    <message>
        <source>the tile at {place} looks face down, yet lies in the layout as the double blank would: taken as [0|0] -- please check it</source>
        <translation>laatta {place} näyttää olevan selkäpuoli ylöspäin, mutta on pelikuviossa kuten tyhjä tupla olisi: tulkittu [0|0] -- tarkista se</translation>
    </message>
    <message>
        <source>no face in the picture is read surely, and the tiles taken for backs at {places} look like the faces: any of them may be a face whose pips do not show -- please check them</source>
        <translation>kuvasta ei voitu lukea varmasti yhdenkään laatan silmiä, ja selkäpuoli ylöspäin tulkitut laatat {places} näyttävät samalta kuin silmäpuolet: mikä tahansa niistä voi olla silmäpuoli ylöspäin oleva laatta, jonka silmät eivät näy -- tarkista ne</translation>
    </message>
    <message>
        <source>the layout reaches the edge of the picture ({tiles}): it may go on beyond it, unseen -- frame the whole layout</source>
        <translation>pelikuvio ulottuu kuvan reunaan ({tiles}): se voi jatkua näkymättömissä -- rajaa koko pelikuvio kuvaan</translation>
    </message>
    <message>
        <source>the open end of {tile} at {place} is not bare table (something covers it): a tile may lie there unseen -- please check it</source>
        <translation>laatan {tile} avoin pää {place} ei ole paljasta pöytää (jokin peittää sen): siinä voi olla näkymätön laatta -- tarkista se</translation>
    </message>
    <message>
        <source>the tile at {place} is read uncertainly as {read} ({confidence}): please check it</source>
        <translation>laatta {place} luetaan epävarmasti {read} ({confidence}): tarkista se</translation>
    </message>
    <message>
        <source>the pips of the tile at {place} cannot be read (they do not show): please check it</source>
        <translation>laatan {place} silmiä ei voi lukea (ne eivät näy): tarkista se</translation>
    </message>
    <message>
        <source>tiles joined to one another lie beside the layout but are not joined to it ({tiles}): a tile between them may be unseen or misread</source>
        <translation>toisiinsa liittyviä laattoja on pelikuvion vieressä liittymättä siihen ({tiles}): niiden välissä voi olla näkymätön tai väärin luettu laatta</translation>
    </message>
    <message>
        <source>{tile} lies lengthwise in the line: read as a double laid crosswise</source>
        <translation>{tile} on rivissä pitkittäin: luettu poikittain pelatuksi tuplaksi</translation>
    </message>
    <message>
        <source>two tiles at one side: {tile} and {other} both meet the same side</source>
        <translation>kaksi laattaa samalla sivulla: {tile} ja {other} liittyvät molemmat samaan sivuun</translation>
    </message>
    <message>
        <source>{tile} is seen {count} times: {places}</source>
        <translation>{tile} näkyy {count} kertaa: {places}</translation>
    </message>
    <message>
        <source>spinner {tile}: a branch is used before both line sides are filled</source>
        <translation>spinneri {tile}: haaraa käytetään ennen kuin rivin molemmat sivut on täytetty</translation>
    </message>
    <message>
        <source>{tile} is taken as {taken}: its half meets a {pips} at a join, a likely other reading</source>
        <translation>{tile} tulkitaan laataksi {taken}: sen puolisko kohtaa liitoksessa luvun {pips}, todennäköinen toinen luenta</translation>
    </message>
    <message>
        <source>only the round&apos;s first double spins, but {tiles} both have branches</source>
        <translation>vain kierroksen ensimmäinen tupla on spinneri, mutta laatoilla {tiles} on molemmilla haaroja</translation>
    </message>
    <message>
        <source>no order of play gives this layout (a double seems attached by its short end)</source>
        <translation>mikään pelijärjestys ei tuota tätä pelikuviota (tupla näyttää liitetyn lyhyestä päästään)</translation>
    </message>
    <message>
        <source>{tile}: {why}</source>
        <translation>{tile}: {why}</translation>
    </message>
    <message>
        <source>the box at {place} read as {read} is left out: that tile is seen elsewhere, where it fits the game</source>
        <translation>laatikko {place}, luettu {read}, jätetään pois: sama laatta näkyy muualla, jossa se sopii peliin</translation>
    </message>
    <message>
        <source>the tile at {place} read as {read} is taken as {taken}: {why}</source>
        <translation>laatta {place}, luettu {read}, tulkitaan {taken}: {why}</translation>
    </message>
    <message>
        <source>a played tile seen nowhere else</source>
        <translation>pelattu laatta, jota ei näy missään muualla</translation>
    </message>
    <message>
        <source>the only likely reading that fits the game</source>
        <translation>ainoa todennäköinen luenta, joka sopii peliin</translation>
    </message>
    <message>
        <source> and </source>
        <translation> ja </translation>
    </message>
    <message>
        <source>the layout is not seen (covered, or the camera moved; if the round is over, blocked, give the hands left)</source>
        <translation>pelikuviota ei näy (peitetty, tai kamera siirtyi; jos kierros on ohi tukkeutuneena, anna jäljelle jääneet kädet)</translation>
    </message>
    <message>
        <source>the tile at {place} against the layout reads {tile}, which is already played: which tile is it?</source>
        <translation>laatta {place} pelikuvion vieressä luetaan {tile}, joka on jo pelattu: mikä laatta se on?</translation>
    </message>
    <message>
        <source>who started the round? (drawn by lot; the camera did not see the arm)</source>
        <translation>kuka aloitti kierroksen? (arvottu; kamera ei nähnyt kättä)</translation>
    </message>
    <message>
        <source>the hands left at the round&apos;s end could not be counted surely: which were they?</source>
        <translation>kierroksen lopussa jääneitä käsiä ei voitu laskea varmasti: mitkä ne olivat?</translation>
    </message>
    <message>
        <source>the new tiles can have been played in orders that score differently</source>
        <translation>uudet laatat on voitu pelata järjestyksissä, jotka pisteyttävät eri tavoin</translation>
    </message>
    <message>
        <source>the new tiles can have been played in orders that leave another player on turn, or other tiles in hand</source>
        <translation>uudet laatat on voitu pelata järjestyksissä, joiden jälkeen vuorossa on eri pelaaja tai käsissä on eri määrä laattoja</translation>
    </message>
    <message>
        <source>one new tile is seen two ways: {readings}</source>
        <translation>yksi uusi laatta näkyy kahdella tavalla: {readings}</translation>
    </message>
    <message>
        <source>a tile is seen in two places, and either fits the game: {places}</source>
        <translation>laatta näkyy kahdessa paikassa, ja kumpikin sopii peliin: {places}</translation>
    </message>
    <message>
        <source>{tile} at {side} of {other}</source>
        <translation>{tile} laatan {other} jatkoksi ({side})</translation>
    </message>
    <message>
        <source>the new tile at {place} is read unsurely: {readings}</source>
        <translation>uusi laatta {place} luetaan epävarmasti: {readings}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> tai </translation>
    </message>
    <message>
        <source>who laid {tile}? the camera saw no arm, and it is {on_turn}&apos;s turn</source>
        <translation>kuka pelasi laatan {tile}? kamera ei nähnyt kättä, ja on {on_turn_gen} vuoro</translation>
    </message>
    <message>
        <source>{tiles} was laid by an arm from {arm}&apos;s side, but it is {on_turn}&apos;s turn: was it {on_turn}&apos;s?</source>
        <translation>{tiles}: käsi tuli {arm_gen} puolelta, mutta on {on_turn_gen} vuoro: oliko se {on_turn_gen}?</translation>
    </message>
    <message>
        <source>{tiles} cannot be played here by {on_turn} under the rules</source>
        <translation>{on_turn} ei voi sääntöjen mukaan pelata tähän: {tiles}</translation>
    </message>
    <message>
        <source>{tiles} appeared at once, as if laid by one hand: were they played so?</source>
        <translation>{tiles} ilmestyivät yhtä aikaa, kuin yhden käden laskemina: pelattiinko ne niin?</translation>
    </message>
    <message>
        <source>the first tiles of the round do not fit: {problems}</source>
        <translation>kierroksen ensimmäiset laatat eivät sovi: {problems}</translation>
    </message>
    <message>
        <source>the table does not match the game: {problems}</source>
        <translation>pöytä ei vastaa peliä: {problems}</translation>
    </message>
    <message>
        <source>the tile at {place} now reads {after}, not {before}</source>
        <translation>laatta {place} luetaan nyt {after}, ei {before}</translation>
    </message>
    <message>
        <source>the camera moved by {pixels} px (its stand knocked?): the whole table shifted alike, and the places kept follow it</source>
        <translation>kamera siirtyi {pixels} px (jalustaa tönäistiin?): koko pöytä siirtyi samoin, ja muistetut paikat seuraavat sitä</translation>
    </message>
    <message>
        <source>the camera was moved to a new view: the table is read afresh from its tiles</source>
        <translation>kamera siirrettiin uuteen kuvakulmaan: pöytä luetaan alusta sen laatoista</translation>
    </message>
    <message>
        <source>the tiles are about {length} px long in the image, too small for their pips to be read reliably (at least {minimum} px is needed): bring the camera closer or raise its resolution</source>
        <translation>laatat ovat kuvassa noin {length} px pitkiä, liian pieniä, jotta silmät luettaisiin luotettavasti (vähintään {minimum} px tarvitaan): tuo kamera lähemmäs tai nosta sen tarkkuutta</translation>
    </message>
    <message>
        <source>the picture is too grainy for the tiles to be read reliably (the room is too dark for the camera): more light on the table, please</source>
        <translation>kuva on liian rakeinen, jotta laatat luettaisiin luotettavasti (huone on kameralle liian pimeä): lisää valoa pöydälle, kiitos</translation>
    </message>
    <message>
        <source>the picture is very dark: tiles may be misread -- more light on the table, please</source>
        <translation>kuva on hyvin tumma: laattoja voidaan lukea väärin -- lisää valoa pöydälle, kiitos</translation>
    </message>
    <message>
        <source>no tile could be read surely in the picture: if tiles lie there, a sharper, closer or better lit picture, please</source>
        <translation>kuvasta ei voitu lukea varmasti yhtään laattaa: jos pöydällä on laattoja, terävämpi, lähempää otettu tai paremmin valaistu kuva, kiitos</translation>
    </message>
    <message>
        <source>the tile at {place}, seen as a back, is taken as [0|0]: it lies where a double is laid on a 0</source>
        <translation>laatta {place}, joka näkyy selkäpuoli ylöspäin, tulkitaan laataksi [0|0]: se on kohdassa, johon tupla pelataan nollaan</translation>
    </message>
    <message>
        <source>{taken} -- correct it if it is not</source>
        <translation>{taken} -- korjaa, jos se ei pidä paikkaansa</translation>
    </message>
    <message>
        <source>no arm was seen laying {tile}: taken as {taken}, the likeliest under the rules ({odds})</source>
        <translation>laatan {tile} laskevaa kättä ei nähty: tulkittu {taken}, sääntöjen mukaan todennäköisin ({odds})</translation>
    </message>
    <message>
        <source>{percent}%</source>
        <translation>{percent} %</translation>
    </message>
    <message>
        <source>no answer about the order the new tiles were played in: taken as {taken}</source>
        <translation>uusien laattojen pelijärjestykseen ei vastattu: tulkittu {taken}</translation>
    </message>
    <message>
        <source>the moves played since do not fit {played}: the order taken stays (undo the moves to enter them by hand)</source>
        <translation>siitä lähtien pelatut siirrot eivät sovi järjestykseen {played}: tulkittu järjestys pysyy (kumoa siirrot ja syötä ne käsin)</translation>
    </message>
    <message>
        <source>no answer about who laid {tile}: the hands laid out tell -- taken as {taken}</source>
        <translation>kysymykseen, kuka pelasi laatan {tile}, ei vastattu: esille pannut kädet kertovat -- tulkittu {taken}</translation>
    </message>
    <message>
        <source>no answer about who laid {tile}: taken as {taken}, the likeliest under the rules</source>
        <translation>kysymykseen, kuka pelasi laatan {tile}, ei vastattu: tulkittu {taken}, sääntöjen mukaan todennäköisin</translation>
    </message>
    <message>
        <source>no answer about who laid {tile}: taken as {taken}</source>
        <translation>kysymykseen, kuka pelasi laatan {tile}, ei vastattu: tulkittu {taken}</translation>
    </message>
    <message>
        <source>no answer about the tile at {place}: taken as read, {tiles}</source>
        <translation>laatasta {place} ei vastattu: tulkittu luetuksi, {tiles}</translation>
    </message>
    <message>
        <source>no answer about the hands left at the round&apos;s end: taken as read -- {hands}</source>
        <translation>kierroksen lopussa jääneistä käsistä ei vastattu: tulkittu luetuiksi -- {hands}</translation>
    </message>
    <message>
        <source>hands read unsurely, taken as the one likely reading the rules allow: {hands}</source>
        <translation>kädet luettiin epävarmasti; tulkittu ainoaksi todennäköiseksi luennaksi, jonka säännöt sallivat: {hands}</translation>
    </message>
    <message>
        <source>no answer to &apos;{question}&apos; before the recording ended: taken as {taken}</source>
        <translation>kysymykseen ”{question}” ei vastattu ennen tallenteen loppua: tulkittu {taken}</translation>
    </message>
    <message>
        <source>the hands laid out hold more tiles than the camera saw drawn: taken as {changes}</source>
        <translation>esille pannuissa käsissä on enemmän laattoja kuin kamera näki nostettavan: tulkittu {changes}</translation>
    </message>
    <message>
        <source>{player} was counted out, yet play goes on: the camera missed a draw -- taken as {changes}</source>
        <translation>{player} merkittiin pelanneen viimeisen laattansa, mutta peli jatkuu: kamera ei nähnyt nostoa -- tulkittu {changes}</translation>
    </message>
    <message>
        <source>the tile at {place} taken as {taken} is {tile}: {taken} is read surely at {seen_at} -- {changes}, the moves since scored again</source>
        <translation>laatta {place}, joka tulkittiin laataksi {taken}, onkin {tile}: {taken} luetaan varmasti {seen_at} -- {changes}, siitä lähtien tehdyt siirrot pisteytetty uudelleen</translation>
    </message>
    <message>
        <source>the tile at {place} is {tile}, as corrected</source>
        <translation>laatta {place} on {tile}, korjattu</translation>
    </message>
    <message>
        <source>the tile at {place} is {tile}, as corrected: {changes}, the moves since scored again</source>
        <translation>laatta {place} on {tile}, korjattu: {changes}, siitä lähtien tehdyt siirrot pisteytetty uudelleen</translation>
    </message>
    <message>
        <source>no tile is being followed there</source>
        <translation>siinä kohdassa ei seurata yhtään laattaa</translation>
    </message>
    <message>
        <source>{player} {tile}</source>
        <translation>{player} {tile}</translation>
    </message>
    <message>
        <source>{player} passed</source>
        <translation>{player} ohitti vuoronsa</translation>
    </message>
    <message>
        <source>, then </source>
        <translation>, sitten </translation>
    </message>
    <message>
        <source>{player} drew {count}, not {seen}</source>
        <translation>{player} nosti {count}, ei {seen}</translation>
    </message>
    <message>
        <source>{player} drew {count} before laying {tile}</source>
        <translation>{player} nosti {count} ennen kuin pelasi laatan {tile}</translation>
    </message>
    <message>
        <source>{player} drew {count} before passing</source>
        <translation>{player} nosti {count} ennen kuin ohitti vuoronsa</translation>
    </message>
    <message>
        <source>{player} passed holding {tile}, which could be placed: a player who can place a tile must -- the scores stand as the moves were played</source>
        <translation>{player} passasi, vaikka hänellä oli {tile}, jonka olisi voinut pelata: pelaajan, joka voi pelata laatan, on pelattava -- pisteet pysyvät siirtojen mukaisina</translation>
    </message>
    <message>
        <source>{player} knocked holding {tile}, which could be placed: a player who can place a tile must -- the scores stand as the moves were played</source>
        <translation>{player} koputti, vaikka hänellä oli {tile}, jonka olisi voinut pelata: pelaajan, joka voi pelata laatan, on pelattava -- pisteet pysyvät siirtojen mukaisina</translation>
    </message>
    <message>
        <source>{player} played {tile}, not {instead_of}</source>
        <translation>{player} pelasi laatan {tile}, ei {instead_of}</translation>
    </message>
    <message>
        <source>played as {played}</source>
        <translation>pelattu {played}</translation>
    </message>
    <message>
        <source>{change} (at {seconds} s)</source>
        <translation>{change} (kohdassa {seconds} s)</translation>
    </message>
    <message>
        <source>which double spins (the round&apos;s first) cannot be told from the picture: {tiles} -- taken as {spinner}</source>
        <translation>kuvasta ei näe, mikä tupla on spinneri (kierroksen ensimmäinen tupla): {tiles} -- spinneriksi tulkitaan {spinner}</translation>
    </message>
    <message>
        <source>{tile}: joined to {other}, which the rules kept off the board (above)</source>
        <translation>{tile}: kiinni laatassa {other}, jota säännöt eivät päästäneet pelikuvioon (yllä)</translation>
    </message>
    <message>
        <source>most of the board before is not seen ({seen} of its {count} tiles): is this the same table, seen whole?</source>
        <translation>suurin osa edellisen tilanteen laatoista ei näy (näkyvissä {seen}, laattoja oli {count}): onko tämä sama pöytä kokonaan kuvassa?</translation>
    </message>
    <message>
        <source>the calibration {name} was made on {made} pictures, and the camera&apos;s are {size}, another shape: it is not used -- calibrate again with the camera set as it plays</source>
        <translation>kalibrointi {name} tehtiin kuvista, joiden koko on {made}, ja kameran kuvat ovat {size}, erimuotoisia: sitä ei käytetä -- kalibroi uudelleen kamera sellaisena kuin sillä pelataan</translation>
    </message>
    <message>
        <source>the tile at {place} is not taken as {tile}: the rules do not allow {tile} where {kept} was laid -- it stays {kept} (undo the move to enter another)</source>
        <translation>laattaa {place} ei tulkita laataksi {tile}: säännöt eivät salli laattaa {tile} siihen, mihin {kept} pelattiin -- se pysyy laattana {kept} (kumoa siirto syöttääksesi toisen)</translation>
    </message>
    <message>
        <source>{tile} is already on the board</source>
        <translation>{tile} on jo pöydässä</translation>
    </message>
    <message>
        <source>the board is empty: {tile} opens the round and attaches to nothing</source>
        <translation>pöytä on tyhjä: {tile} avaa kierroksen eikä liity mihinkään</translation>
    </message>
    <message>
        <source>{tile} needs a free point to attach to; the board is not empty</source>
        <translation>{tile} tarvitsee vapaan kohdan, johon liittyä; pöytä ei ole tyhjä</translation>
    </message>
    <message>
        <source>{tile} does not match {side} of {other} (shows {value})</source>
        <translation>{tile} ei sovi: laatan {other} {side} on {value}</translation>
    </message>
    <message>
        <source>{side} of {tile} is already filled</source>
        <translation>laatan {tile} {side} on jo täytetty</translation>
    </message>
    <message>
        <source>the larger end</source>
        <translation>suurempi pää</translation>
    </message>
    <message>
        <source>the smaller end</source>
        <translation>pienempi pää</translation>
    </message>
    <message>
        <source>line A</source>
        <translation>linja A</translation>
    </message>
    <message>
        <source>line B</source>
        <translation>linja B</translation>
    </message>
    <message>
        <source>branch A</source>
        <translation>haara A</translation>
    </message>
    <message>
        <source>branch B</source>
        <translation>haara B</translation>
    </message>
    <message>
        <source>{side} of {tile} shows {expected}, not {value}</source>
        <translation>laatan {tile} {side} on {expected}, ei {value}</translation>
    </message>
    <message>
        <source>{player} has {count} in hand by the log, the reveal shows {shown}</source>
        <translation>{player_gen} kädessä on lokin mukaan laattoja {count}, paljastetussa kädessä {shown}</translation>
    </message>
    <message>
        <source>{tile} does not match {side} of {at}, which shows {value}</source>
        <translation>{tile} ei sovi: laatan {at} {side} on {value}</translation>
    </message>
    <message>
        <source>{side} of {tile} shows {value}</source>
        <translation>laatan {tile} {side} on {value}</translation>
    </message>
    <message>
        <source>unknown player {player}; the players are {players}</source>
        <translation>tuntematon pelaaja {player}; pelaajat ovat {players}</translation>
    </message>
    <message>
        <source>player names must differ, found {names}</source>
        <translation>pelaajilla on oltava eri nimet, annettu {names}</translation>
    </message>
    <message>
        <source>{path}: this match is open in another window or process</source>
        <translation>{path}: tämä ottelu on jo auki toisessa ikkunassa tai ohjelmassa</translation>
    </message>
    <message>
        <source>{path}: this game is open in another window or process</source>
        <translation>{path}: tämä peli on jo auki toisessa ikkunassa tai ohjelmassa</translation>
    </message>
    <message>
        <source>another program replaced the file; written again as this window has it, the other kept as {kept}</source>
        <translation>toinen ohjelma korvasi tiedoston; kirjoitettu uudelleen sellaisena kuin se on tässä ikkunassa, toinen säilytetty nimellä {kept}</translation>
    </message>
    <message>
        <source>another program removed the file; written again as this window has it</source>
        <translation>toinen ohjelma poisti tiedoston; kirjoitettu uudelleen sellaisena kuin se on tässä ikkunassa</translation>
    </message>
    <message>
        <source>{path}: another window or process writes this file now; this window&apos;s copy is kept as {kept}: close this window and go on there</source>
        <translation>{path}: toinen ikkuna tai ohjelma kirjoittaa nyt tätä tiedostoa; tämän ikkunan kopio säilytettiin nimellä {kept}: sulje tämä ikkuna ja jatka siellä</translation>
    </message>
    <message>
        <source>lines another program added to the file were moved to {kept}</source>
        <translation>toisen ohjelman tiedostoon lisäämät rivit siirrettiin tiedostoon {kept}</translation>
    </message>
    <message>
        <source>{path}: cannot open the match to go on with it: {reason}</source>
        <translation>{path}: ottelua ei voi avata jatkettavaksi: {reason}</translation>
    </message>
    <message>
        <source>{folder}: cannot make the sessions folder: a file of that name is in the way</source>
        <translation>{folder}: ottelukansiota ei voi tehdä: samanniminen tiedosto on tiellä</translation>
    </message>
    <message>
        <source>{folder}: cannot make the sessions folder: {reason}</source>
        <translation>{folder}: ottelukansiota ei voi tehdä: {reason}</translation>
    </message>
    <message>
        <source>{path}: cannot write the match: {reason}</source>
        <translation>{path}: ottelua ei voi kirjoittaa: {reason}</translation>
    </message>
    <message>
        <source>{path}: cannot save the move: {reason}</source>
        <translation>{path}: siirtoa ei voi tallentaa: {reason}</translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation>levy on täynnä</translation>
    </message>
    <message>
        <source>the disk quota is used up</source>
        <translation>levykiintiö on käytetty</translation>
    </message>
    <message>
        <source>the disk is read-only</source>
        <translation>levylle ei voi kirjoittaa (vain luku)</translation>
    </message>
    <message>
        <source>there is no permission to write it</source>
        <translation>kirjoitusoikeutta ei ole</translation>
    </message>
    <message>
        <source>it is gone</source>
        <translation>sitä ei enää ole</translation>
    </message>
    <message>
        <source>the disk failed to write it (an input/output error)</source>
        <translation>levy ei pystynyt kirjoittamaan sitä (siirräntävirhe)</translation>
    </message>
    <message>
        <source>the file is too large for the disk</source>
        <translation>tiedosto on liian suuri levylle</translation>
    </message>
    <message>
        <source>the first tile was laid from {arm}&apos;s side, but {named} was named to start the round: who started it?</source>
        <translation>ensimmäinen laatta pelattiin {arm_gen} puolelta, mutta kierroksen aloittajaksi nimettiin {named}: kuka aloitti?</translation>
    </message>
    <message>
        <source>no answer about who started the round: taken as {starter}, from whose side its first tile was laid (not {named}, as named at the start)</source>
        <translation>kysymykseen, kuka aloitti kierroksen, ei vastattu: tulkittu {starter}, jonka puolelta ensimmäinen laatta pelattiin (ei {named}, joka nimettiin alussa)</translation>
    </message>
    <message>
        <source>a player needs a name, found {name}</source>
        <translation>jokainen pelaaja tarvitsee nimen, annettu {name}</translation>
    </message>
    <message>
        <source>Horse Race is played by 2, 3 or 4 players, found {count}</source>
        <translation>Horse Racea pelaa 2, 3 tai 4 pelaajaa, pelaajia nyt {count}</translation>
    </message>
    <message>
        <source>Horse Race partnerships need 4 players (two pairs), found {count}</source>
        <translation>Horse Racen paripeliin tarvitaan 4 pelaajaa (kaksi paria), pelaajia nyt {count}</translation>
    </message>
    <message>
        <source>Seven Rocks is played by exactly 4 players in two partnerships, found {count}</source>
        <translation>Seven Rocksia pelaa tasan 4 pelaajaa kahtena parina, pelaajia nyt {count}</translation>
    </message>
    <message>
        <source>Seven Rocks is played in two partnerships, not each player on their own</source>
        <translation>Seven Rocksia pelataan kahtena parina, ei kukin yksin</translation>
    </message>
    <message>
        <source>cribbage is played here by 2, 3 or 4 players, found {count}</source>
        <translation>cribbagea pelataan täällä 2, 3 tai 4 pelaajan kesken, pelaajia nyt {count}</translation>
    </message>
    <message>
        <source>a game goes to 121 (or 61 for a short game), not {target}</source>
        <translation>peli käydään 121 pisteeseen (lyhyt peli 61 pisteeseen), ei {target} pisteeseen</translation>
    </message>
    <message>
        <source>an empty card</source>
        <translation>tyhjä kortti</translation>
    </message>
    <message>
        <source>the crib</source>
        <translation>seimi</translation>
    </message>
    <message>
        <source>{text}: unknown rank {rank}; expected A, 2-10 (or T), J, Q or K</source>
        <translation>{text}: tuntematon arvo {rank}; odotettiin A, 2–10 (tai T), J, Q tai K</translation>
    </message>
    <message>
        <source>{text}: expected a rank and a suit, like 5H, 10C or JD (suits S, H, D, C)</source>
        <translation>{text}: odotettiin arvo ja maa, kuten 5H, 10C tai JD (maat S, H, D, C)</translation>
    </message>
    <message>
        <source>{card} appears twice; a deck has one of each card</source>
        <translation>{card} esiintyy kahdesti; pakassa on kutakin korttia yksi</translation>
    </message>
    <message>
        <source>{card} would take the count from {count} past 31; say go instead</source>
        <translation>{card} veisi summan {count} yli 31:n; sano go</translation>
    </message>
    <message>
        <source>a go with no card played since the count restarted</source>
        <translation>go, vaikka summan nollautumisen jälkeen ei ole pelattu korttia</translation>
    </message>
    <message>
        <source>a deck has four cards of each rank; {card} is played a fifth time</source>
        <translation>pakassa on neljä kutakin arvoa; {card} pelataan viidennen kerran</translation>
    </message>
    <message>
        <source>a hand (or crib) to count has 4 cards besides the starter, found {count}</source>
        <translation>laskettavassa kädessä (tai seimessä) on 4 korttia nostokortin lisäksi, annettu {count}</translation>
    </message>
    <message>
        <source>{card}: counting a show needs each card&apos;s suit</source>
        <translation>{card}: käden laskemiseen tarvitaan jokaisen kortin maa</translation>
    </message>
    <message>
        <source>the game is over ({player} won); deal a new game</source>
        <translation>peli on ohi ({player} voitti); jaa uusi peli</translation>
    </message>
    <message>
        <source>no deal yet: say who deals first</source>
        <translation>ei vielä jakoa: kerro, kuka jakaa ensin</translation>
    </message>
    <message>
        <source>the starter is already cut ({card})</source>
        <translation>nostokortti on jo nostettu ({card})</translation>
    </message>
    <message>
        <source>the starter needs its suit (for flushes and nobs)</source>
        <translation>nostokortille tarvitaan maa (värisuoria ja nobsia varten)</translation>
    </message>
    <message>
        <source>cut the starter before pegging</source>
        <translation>nosta nostokortti ennen pelausta</translation>
    </message>
    <message>
        <source>the show has begun: pegging is over for this deal</source>
        <translation>käsien laskenta on alkanut: tämän jaon pelaus on ohi</translation>
    </message>
    <message>
        <source>{card} is the starter: it is in nobody&apos;s hand</source>
        <translation>{card} on nostokortti: se ei ole kenenkään kädessä</translation>
    </message>
    <message>
        <source>every card has been pegged</source>
        <translation>kaikki kortit on pelattu</translation>
    </message>
    <message>
        <source>{player} has pegged all {count} cards</source>
        <translation>{player} on pelannut kaikki {count} korttiaan</translation>
    </message>
    <message>
        <source>{player} said go: the count must restart before {player} plays again</source>
        <translation>{player} sanoi go: summan on nollauduttava ennen kuin {player} pelaa taas</translation>
    </message>
    <message>
        <source>it is {turn}&apos;s turn to peg, not {player}&apos;s</source>
        <translation>pelausvuorossa on {turn}, ei {player}</translation>
    </message>
    <message>
        <source>a deck has four cards of each rank; {card} is pegged a fifth time</source>
        <translation>pakassa on neljä kutakin arvoa; {card} pelataan viidennen kerran</translation>
    </message>
    <message>
        <source>every card has been pegged: there is no go to say</source>
        <translation>kaikki kortit on pelattu: go:ta ei voi sanoa</translation>
    </message>
    <message>
        <source>it is {turn}&apos;s turn, not {player}&apos;s</source>
        <translation>vuorossa on {turn}, ei {player}</translation>
    </message>
    <message>
        <source>the count is {count}: any card {player} holds keeps it at 31 or under, so {player} plays and cannot say go</source>
        <translation>summa on {count}: millä tahansa {player_gen} kortilla summa on enintään 31, joten {player} pelaa eikä voi sanoa go</translation>
    </message>
    <message>
        <source>cut the starter before the show</source>
        <translation>nosta nostokortti ennen käsien laskentaa</translation>
    </message>
    <message>
        <source>{card} is the starter: it counts with every hand, so type only the four cards of the hand</source>
        <translation>{card} on nostokortti: se lasketaan jokaisen käden kanssa, joten kirjoita vain käden neljä korttia</translation>
    </message>
    <message>
        <source>the counting goes from the dealer&apos;s left, the dealer, then the crib: expected {expected}&apos;s count, found {who}&apos;s</source>
        <translation>laskenta etenee jakajan vasemmalta, sitten jakaja ja lopuksi seimi: vuorossa on {expected}, ei {who}</translation>
    </message>
    <message>
        <source>the crib is the dealer&apos;s ({dealer}), not {player}&apos;s</source>
        <translation>seimi on jakajan ({dealer}), ei pelaajan {player}</translation>
    </message>
    <message>
        <source>{player} claims {claimed} but the crib counts {total}</source>
        <translation>{player} ilmoittaa {claimed}, mutta seimi on {total} pistettä</translation>
    </message>
    <message>
        <source>{player} claims {claimed} but the hand counts {total}</source>
        <translation>{player} ilmoittaa {claimed}, mutta käsi on {total} pistettä</translation>
    </message>
    <message>
        <source>{player} pegged {card} this deal: the hand counted must hold it</source>
        <translation>{player} pelasi tässä jaossa kortin {card}: laskettavassa kädessä on oltava se</translation>
    </message>
    <message>
        <source>the deal is not finished: every hand and the crib are shown before the next deal</source>
        <translation>jako on kesken: kaikki kädet ja seimi lasketaan ennen seuraavaa jakoa</translation>
    </message>
    <message>
        <source>{card} was counted already this deal, in the crib</source>
        <translation>{card} laskettiin jo tässä jaossa seimessä</translation>
    </message>
    <message>
        <source>{card} was counted already this deal, in {player}&apos;s hand</source>
        <translation>{card} laskettiin jo tässä jaossa, {player_gen} kädessä</translation>
    </message>
    <message>
        <source>{card} was pegged by {other}: it is not in the crib</source>
        <translation>kortin {card} pelasi {other}: se ei ole seimessä</translation>
    </message>
    <message>
        <source>{card} was pegged by {other}: it is not in {player}&apos;s hand</source>
        <translation>kortin {card} pelasi {other}: se ei ole {player_gen} kädessä</translation>
    </message>
    <message>
        <source>{tile} is not on the board</source>
        <translation>{tile} ei ole pöydässä</translation>
    </message>
    <message>
        <source>camera {camera}: not found or cannot be opened</source>
        <translation>kameraa {camera} ei löydy tai sitä ei voi avata</translation>
    </message>
    <message>
        <source>camera {camera}: no picture for {seconds} s; it stopped or was unplugged</source>
        <translation>kamerasta {camera} ei ole tullut kuvaa {seconds} sekuntiin; se pysähtyi tai irrotettiin</translation>
    </message>
    <message>
        <source>{other} meets the long side of {tile} between its middle and its end: read as the line turning at the double&apos;s end, not a branch from its middle -- please check it</source>
        <translation>{other} liittyy tuplan {tile} pitkään sivuun keskikohdan ja pään väliltä: luettu rivin kääntymiseksi tuplan päässä, ei haaraksi sen keskeltä -- tarkista se</translation>
    </message>
    <message>
        <source>the picture is too dark: no tile in it could be read surely -- if tiles lie there, more light on the table, please</source>
        <translation>kuva on liian tumma: yhtään laattaa ei voitu lukea siitä varmasti -- jos pöydällä on laattoja, lisää valoa pöydälle, kiitos</translation>
    </message>
    <message>
        <source>the order taken for the new tiles does not let {tile} be played as seen: another order the rules allowed is taken, the moves since scored again -- scores: {scores}</source>
        <translation>uusille laatoille tulkittu järjestys ei salli laatan {tile} pelaamista niin kuin se nähtiin: tulkittu toinen sääntöjen sallima järjestys, siirrot siitä lähtien pisteytetty uudelleen -- pisteet: {scores}</translation>
    </message>
    <message>
        <source>the new tiles are taken in the order picked, the moves since scored again -- scores: {scores}</source>
        <translation>uudet laatat tulkittu valittuun järjestykseen, siirrot siitä lähtien pisteytetty uudelleen -- pisteet: {scores}</translation>
    </message>
    <message>
        <source>no other order can be picked for those tiles now: their moves were withdrawn, or the next round has begun</source>
        <translation>niille laatoille ei voi enää valita toista järjestystä: niiden siirrot on peruttu tai seuraava kierros on alkanut</translation>
    </message>
    <message>
        <source>the hands laid out hold fewer tiles than the camera saw drawn: taken as {changes}</source>
        <translation>esille pannuissa käsissä on vähemmän laattoja kuin kamera näki nostettavan: tulkittu {changes}</translation>
    </message>
    <message>
        <source>{tile} is not a spinner: its branch sides cannot be used</source>
        <translation>{tile} ei ole spinneri: sen haaroja ei voi käyttää</translation>
    </message>
    <message>
        <source>spinner {tile}: both line sides must be filled before a branch opens; {sides} still free</source>
        <translation>spinneri {tile}: rivin molemmat sivut on täytettävä ennen kuin haara avataan; {sides} vielä vapaana</translation>
    </message>
    <message>
        <source>the match is over ({winners} won); no more events</source>
        <translation>ottelu on päättynyt ({winners} voitti); siirtoja ei enää ole</translation>
    </message>
    <message>
        <source>round {round} is still being played; a new round cannot start</source>
        <translation>kierros {round} on yhä kesken; uutta kierrosta ei voi aloittaa</translation>
    </message>
    <message>
        <source>round {round} is over but its hands were not revealed; expected a reveal</source>
        <translation>kierros {round} on päättynyt, mutta sen käsiä ei ole näytetty; odotetaan käsien näyttämistä</translation>
    </message>
    <message>
        <source>{player} played the last tile of round {round} and starts round {next}, not {starter}</source>
        <translation>{player} pelasi kierroksen {round} viimeisen laatan ja aloittaa kierroksen {next}, ei {starter}</translation>
    </message>
    <message>
        <source>the first round</source>
        <translation>ensimmäisen kierroksen</translation>
    </message>
    <message>
        <source>round {round} (after a blocked round)</source>
        <translation>kierroksen {round} (tukkeutuneen kierroksen jälkeen)</translation>
    </message>
    <message>
        <source>the starter of {which} is drawn by lot; the round event must name the starter</source>
        <translation>{which} aloittaja arvotaan; kierroksen alun on nimettävä aloittaja</translation>
    </message>
    <message>
        <source>no round is being played: expected a round event before {player}&apos;s {action}</source>
        <translation>kierrosta ei ole käynnissä: kierroksen alkua odotetaan ennen pelaajan {player} siirtoa ({action})</translation>
    </message>
    <message>
        <source>{player} played the last tile</source>
        <translation>{player} pelasi viimeisen laatan</translation>
    </message>
    <message>
        <source>it is blocked</source>
        <translation>se on tukkeutunut</translation>
    </message>
    <message>
        <source>round {round} is over ({why}): expected the reveal of the hands, not a {action}</source>
        <translation>kierros {round} on päättynyt ({why}): odotetaan käsien näyttämistä, ei siirtoa ({action})</translation>
    </message>
    <message>
        <source>it is {on_turn}&apos;s turn, not {player}&apos;s ({action})</source>
        <translation>vuorossa on {on_turn}, ei {player} ({action})</translation>
    </message>
    <message>
        <source>play</source>
        <translation>pelaus</translation>
    </message>
    <message>
        <source>draw</source>
        <translation>nosto</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>ohitus</translation>
    </message>
    <message>
        <source>{game} has no boneyard: nobody draws (a player who cannot place knocks)</source>
        <translation>pelissä {game} ei ole nostokasaa: kukaan ei nosta (pelaaja, joka ei voi pelata, koputtaa)</translation>
    </message>
    <message>
        <source>{player} starts the round and opens with any tile: there is nothing to draw for</source>
        <translation>{player} aloittaa kierroksen millä tahansa laatalla: nostettavaa ei ole</translation>
    </message>
    <message>
        <source>{player} draws {count} but the boneyard holds {boneyard}</source>
        <translation>{player} nostaa {count}, mutta nostokasassa on {boneyard}</translation>
    </message>
    <message>
        <source>{player} starts the round and opens with any tile: no pass is possible</source>
        <translation>{player} aloittaa kierroksen millä tahansa laatalla: vuoroa ei voi ohittaa</translation>
    </message>
    <message>
        <source>{player} may not pass while the boneyard is not empty ({boneyard} left): a player who cannot play draws</source>
        <translation>{player} ei voi ohittaa vuoroaan, kun nostokasa ei ole tyhjä ({boneyard} jäljellä): pelaaja, joka ei voi pelata, nostaa</translation>
    </message>
    <message>
        <source>no round is being played: there are no hands to reveal</source>
        <translation>kierrosta ei ole käynnissä: näytettäviä käsiä ei ole</translation>
    </message>
    <message>
        <source>the reveal lists a player&apos;s hand twice</source>
        <translation>saman pelaajan käsi on annettu kahdesti</translation>
    </message>
    <message>
        <source>the reveal lists no hand for {players} (give [] for an empty hand)</source>
        <translation>käsiä ei ole annettu pelaajille {players} (tyhjä käsi: [])</translation>
    </message>
    <message>
        <source>{player}&apos;s revealed {tile} is on the board</source>
        <translation>pelaajan {player} kädessä näytetty {tile} on jo pöydällä</translation>
    </message>
    <message>
        <source>{tile} is revealed twice</source>
        <translation>{tile} on näytetty kahdesti</translation>
    </message>
    <message>
        <source>{tile} opens the round: the board is empty, so it cannot be attached to {at}</source>
        <translation>{tile} avaa kierroksen: pöytä on tyhjä, joten sitä ei voi liittää laattaan {at}</translation>
    </message>
    <message>
        <source>a play that names a side must also name the tile it is attached to (&apos;at&apos;)</source>
        <translation>siirto, joka nimeää sivun, nimeää myös laatan, johon se liitetään (&apos;at&apos;)</translation>
    </message>
    <message>
        <source>{tile} fits no free point; free: {free}</source>
        <translation>{tile} ei sovi mihinkään vapaaseen kohtaan; vapaina: {free}</translation>
    </message>
    <message>
        <source>{tile} fits more than one tile ({tiles}): name the one it is attached to with &apos;at&apos;</source>
        <translation>{tile} sopii useampaan laattaan ({tiles}): nimeä &apos;at&apos;-kentällä se, johon se liitetään</translation>
    </message>
    <message>
        <source>{tile} is put at {at}, which is not on the board</source>
        <translation>{tile} on pantu laattaan {at}, joka ei ole pöydässä</translation>
    </message>
    <message>
        <source>no free side</source>
        <translation>ei vapaata sivua</translation>
    </message>
    <message>
        <source>{tile} does not match {at}: it has {shows}</source>
        <translation>{tile} ei sovi laattaan {at}: siinä on {shows}</translation>
    </message>
    <message>
        <source>{player} has not drawn: a drawn tile is played right after the draw</source>
        <translation>{player} ei ole nostanut: nostettu laatta pelataan heti noston jälkeen</translation>
    </message>
    <message>
        <source>{player} has just drawn: the play right after a draw is the drawn tile</source>
        <translation>{player} on juuri nostanut: heti noston jälkeen pelataan nostettu laatta</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ei yhtään</translation>
    </message>
    <message>
        <source>round {round} is not over: the boneyard is not empty ({boneyard} left)</source>
        <translation>kierros {round} ei ole ohi: nostokasa ei ole tyhjä ({boneyard} jäljellä)</translation>
    </message>
    <message>
        <source>round {round} is not blocked: {player} holds {tile}, which can be placed</source>
        <translation>kierros {round} ei ole tukossa: pelaajalla {player} on {tile}, jonka voi pelata</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Asetukset</translation>
    </message>
    <message>
        <source>say the announcements aloud</source>
        <translation>sano ilmoitukset ääneen</translation>
    </message>
    <message>
        <source>Test the voice</source>
        <translation>Kokeile ääntä</translation>
    </message>
    <message>
        <source> s</source>
        <comment>seconds</comment>
        <translation> s</translation>
    </message>
    <message>
        <source>empty: this computer&apos;s club file</source>
        <translation>tyhjä: tämän tietokoneen kerhotiedosto</translation>
    </message>
    <message>
        <source>empty: this computer&apos;s club file; or a file, or postgresql+psycopg://user:password@host/club</source>
        <translation>tyhjä: tämän tietokoneen kerhotiedosto; tai tiedosto, tai postgresql+psycopg://käyttäjä:salasana@palvelin/club</translation>
    </message>
    <message>
        <source>e.g. Table 3</source>
        <translation>esim. Pöytä 3</translation>
    </message>
    <message>
        <source>Camera</source>
        <translation>Kamera</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>Tarkkuus</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Kieli</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>Ääni</translation>
    </message>
    <message>
        <source>Speaks with</source>
        <translation>Puhemoottori</translation>
    </message>
    <message>
        <source>Still table for</source>
        <translation>Pöytä liikkumatta vähintään</translation>
    </message>
    <message>
        <source>Club database</source>
        <translation>Kerhon tietokanta</translation>
    </message>
    <message>
        <source>This table&apos;s name</source>
        <translation>Tämän pöydän nimi</translation>
    </message>
    <message>
        <source> — announcements are shown, not spoken</source>
        <translation> — ilmoitukset vain näytetään</translation>
    </message>
    <message>
        <source>Tried and not used: {tried}</source>
        <translation>Kokeiltu, ei käytössä: {tried}</translation>
    </message>
    <message>
        <source>No voice was found (Qt TextToSpeech and espeak-ng were tried); nothing is said.</source>
        <translation>Ääntä ei löytynyt (Qt TextToSpeech ja espeak-ng kokeiltiin); mitään ei sanota ääneen.</translation>
    </message>
    <message>
        <source>Saying with {engine}: “{text}”</source>
        <translation>Puhemoottori {engine} sanoo: ”{text}”</translation>
    </message>
    <message>
        <source>There is no club database at {path}. Make a new, empty one there? (The tables of one club evening must all name the same one: No lets you check the name.)</source>
        <translation>Kerhon tietokantaa ei ole paikassa {path}. Tehdäänkö sinne uusi, tyhjä? (Saman kerhoillan kaikkien pöytien on käytettävä samaa tietokantaa: Ei-vastauksella voit tarkistaa nimen.)</translation>
    </message>
</context>
<context>
    <name>Speaker</name>
    <message>
        <source>text only</source>
        <translation>vain teksti</translation>
    </message>
    <message>
        <source>choosing a voice…</source>
        <translation>valitaan ääntä…</translation>
    </message>
    <message>
        <source>Qt&apos;s test engine makes no sound</source>
        <translation>Qt:n testimoottori ei tuota ääntä</translation>
    </message>
    <message>
        <source>{path} is not executable</source>
        <translation>{path} ei ole suoritettava ohjelma</translation>
    </message>
    <message>
        <source>not ready within {ms} ms</source>
        <translation>ei valmiina {ms} ms:n kuluessa</translation>
    </message>
    <message>
        <source>{engine} stopped working: {why}</source>
        <translation>{engine} lakkasi toimimasta: {why}</translation>
    </message>
    <message>
        <source>no sound device could be opened</source>
        <translation>äänilaitetta ei voitu avata</translation>
    </message>
    <message>
        <source>exit status {code}</source>
        <translation>paluuarvo {code}</translation>
    </message>
    <message>
        <source>espeak-ng could not speak: {why}</source>
        <translation>espeak-ng ei pystynyt puhumaan: {why}</translation>
    </message>
</context>
<context>
    <name>StartDialog</name>
    <message>
        <source>{when}  {game}: {scores}  ({count} events, recovered)</source>
        <extracomment>A saved match: when it began, the game, the scores, how many events its file holds; it was recovered after a crash.</extracomment>
        <translation>{when}  {game}: {scores}  (tapahtumia {count}, palautettu)</translation>
    </message>
    <message>
        <source>{when}  {game}: {scores}  ({count} events; its damaged end is cut off, and kept aside, when resumed)</source>
        <extracomment>A saved match whose last lines cannot be read (a crash, a full disk): they are cut off when it is resumed.</extracomment>
        <translation>{when}  {game}: {scores}  (tapahtumia {count}; vahingoittunut loppu leikataan pois ja säilötään erikseen, kun otteluun palataan)</translation>
    </message>
    <message>
        <source>{when}  {game}: {scores}  ({count} events)</source>
        <translation>{when}  {game}: {scores}  (tapahtumia {count})</translation>
    </message>
    <message>
        <source> (the demo)</source>
        <translation> (esittely)</translation>
    </message>
    <message>
        <source>A damaged match</source>
        <translation>Vahingoittunut ottelu</translation>
    </message>
    <message>
        <source>Line {line} of this match&apos;s file cannot be read. Resuming keeps the {count} events before it; that line and every line after it are cut off and kept beside the file, in {name}.

Resume it?</source>
        <translation>Tämän ottelun tiedoston riviä {line} ei voi lukea. Jatkaminen säilyttää {count} sitä edeltävää tapahtumaa; se rivi ja kaikki sen jälkeiset leikataan pois ja säilötään tiedoston viereen, tiedostoon {name}.

Jatketaanko sitä?</translation>
    </message>
    <message>
        <source>An unfinished match</source>
        <translation>Kesken jäänyt ottelu</translation>
    </message>
    <message>
        <source>This table&apos;s match is unfinished:
{match}

Go on with it?</source>
        <translation>Tämän pöydän ottelu on kesken:
{match}

Jatketaanko sitä?</translation>
    </message>
    <message>
        <source>Resume it</source>
        <translation>Jatka sitä</translation>
    </message>
    <message>
        <source>Start a new match</source>
        <translation>Aloita uusi ottelu</translation>
    </message>
    <message>
        <source>Domino table scorer</source>
        <translation>Dominopöydän pistelaskija</translation>
    </message>
    <message>
        <source>Play the demo</source>
        <translation>Toista esittely</translation>
    </message>
    <message>
        <source>Cribbage…</source>
        <translation>Cribbage…</translation>
    </message>
    <message>
        <source>Cribbage… ({count} unfinished)</source>
        <translation>Cribbage… ({count} kesken)</translation>
    </message>
    <message>
        <source>A cribbage game on its own board: an unfinished one resumed, or a new one to 121 or 61, with muggins or not</source>
        <translation>Cribbage-peli omalla laudallaan: kesken jäänyt jatkettuna tai uusi 121 tai 61 pisteeseen, mugginsilla tai ilman</translation>
    </message>
    <message>
        <source>Club…</source>
        <translation>Kerho…</translation>
    </message>
    <message>
        <source>The club&apos;s history: tonight&apos;s matches, the standings, each player&apos;s page</source>
        <translation>Kerhon historia: illan ottelut, sarjataulukko, pelaajien sivut</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Asetukset…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Lopeta</translation>
    </message>
    <message>
        <source>Go on with a saved match</source>
        <translation>Jatka tallennettua ottelua</translation>
    </message>
    <message>
        <source>No unfinished domino match is saved.</source>
        <translation>Keskeneräisiä domino-otteluita ei ole tallennettu.</translation>
    </message>
    <message>
        <source>Resume the last match: {players}</source>
        <translation>Jatka viimeisintä ottelua: {players}</translation>
    </message>
    <message>
        <source>Resume this one</source>
        <translation>Jatka tätä</translation>
    </message>
    <message>
        <source>Other unfinished matches:</source>
        <translation>Muut keskeneräiset ottelut:</translation>
    </message>
    <message>
        <source>New match</source>
        <translation>Uusi ottelu</translation>
    </message>
    <message>
        <source>two pairs (partners sit opposite)</source>
        <translation>paripeli (parin jäsenet istuvat vastakkain)</translation>
    </message>
    <message>
        <source>empty: whoever lays the first tile</source>
        <translation>tyhjä: ensimmäisen laatan pelaaja</translation>
    </message>
    <message>
        <source>who starts round 1 (empty: whoever lays the first tile, as your lot drew)</source>
        <translation>kuka aloittaa 1. kierroksen (tyhjä: se, joka pelaa ensimmäisen laatan, kuten arvonta ratkaisi)</translation>
    </message>
    <message>
        <source>Camera {number}</source>
        <translation>Kamera {number}</translation>
    </message>
    <message>
        <source>A video file or recorded session…</source>
        <translation>Videotiedosto tai tallennettu istunto…</translation>
    </message>
    <message>
        <source>A network camera (URL)…</source>
        <translation>Verkkokamera (URL)…</translation>
    </message>
    <message>
        <source>No camera: every move entered by hand</source>
        <translation>Ei kameraa: jokainen siirto syötetään käsin</translation>
    </message>
    <message>
        <source>a file, a folder, rtsp:// or http://</source>
        <translation>tiedosto, kansio, rtsp:// tai http://</translation>
    </message>
    <message>
        <source>a video file, a record folder, or rtsp:// / http:// for a phone over the table</source>
        <translation>videotiedosto, tallennekansio tai rtsp:// / http:// pöydän yllä olevalle puhelimelle</translation>
    </message>
    <message>
        <source>Open video file…</source>
        <translation>Avaa videotiedosto…</translation>
    </message>
    <message>
        <source>Open recorded session…</source>
        <translation>Avaa tallennettu istunto…</translation>
    </message>
    <message>
        <source>(none)</source>
        <comment>no calibration</comment>
        <translation>(ei kalibrointia)</translation>
    </message>
    <message>
        <source>Calibrate the table…</source>
        <translation>Kalibroi pöytä…</translation>
    </message>
    <message>
        <source>Game</source>
        <translation>Peli</translation>
    </message>
    <message>
        <source>Players (clockwise from the seat nearest the camera)</source>
        <translation>Pelaajat (myötäpäivään kameraa lähimmästä paikasta)</translation>
    </message>
    <message>
        <source>Starter</source>
        <translation>Aloittaja</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Kuvalähde</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>Kalibrointi</translation>
    </message>
    <message>
        <source>Start the match</source>
        <translation>Aloita ottelu</translation>
    </message>
    <message>
        <source>Give the video file, the recorded session&apos;s folder or the camera&apos;s URL.</source>
        <translation>Anna videotiedosto, tallennetun istunnon kansio tai kameran URL-osoite.</translation>
    </message>
    <message>
        <source>{path}: no such file or folder.</source>
        <translation>{path}: tiedostoa tai kansiota ei ole.</translation>
    </message>
    <message>
        <source>{name} is not one of the players ({players}).</source>
        <translation>Pelaajissa ({players}) ei ole nimeä {name}.</translation>
    </message>
    <message>
        <source>Open a recording</source>
        <translation>Avaa tallenne</translation>
    </message>
    <message>
        <source>Videos (*.mp4 *.avi *.mkv)</source>
        <translation>Videot (*.mp4 *.avi *.mkv)</translation>
    </message>
    <message>
        <source>Open a recorded session</source>
        <translation>Avaa tallennettu istunto</translation>
    </message>
    <message>
        <source>The calibration is missing</source>
        <translation>Kalibrointi puuttuu</translation>
    </message>
    <message>
        <source>{problem}

Go on without it? The table is then read uncalibrated (each seat by the edge of the picture nearest it); a calibration saved again under the name {name} is used the next time.</source>
        <translation>{problem}

Jatketaanko ilman sitä? Pöytä luetaan silloin kalibroimatta (kukin paikka kuvan lähimmän reunan mukaan); nimellä {name} uudelleen tallennettua kalibrointia käytetään seuraavalla kerralla.</translation>
    </message>
    <message>
        <source>The saved match was damaged</source>
        <translation>Tallennettu ottelu oli vioittunut</translation>
    </message>
    <message>
        <source>Cannot start the demo</source>
        <translation>Esittelyä ei voi aloittaa</translation>
    </message>
    <message>
        <source>Cannot start</source>
        <translation>Ottelua ei voi aloittaa</translation>
    </message>
    <message>
        <source>Each player needs a name of their own: {first} and {second} are the same name.</source>
        <extracomment>{first}, {second}: two of the names typed, the same but for their case (&quot;Ann&quot;, &quot;ann&quot;).</extracomment>
        <translation>Jokaisella pelaajalla on oltava oma nimensä: {first} ja {second} ovat sama nimi.</translation>
    </message>
</context>
<context>
    <name>TableMode</name>
    <message>
        <source>F11 or Esc: back to the full view</source>
        <translation>F11 tai Esc: takaisin täyteen näkymään</translation>
    </message>
    <message>
        <source>{game} — round {round}</source>
        <translation>{game} — kierros {round}</translation>
    </message>
    <message>
        <source>Match over: {names} wins</source>
        <comment>one winner</comment>
        <extracomment>{names}: the winners joined by &quot;and&quot;; {names_fi}: joined by &quot;ja&quot;.</extracomment>
        <translation>Ottelu päättyi: {names_fi} voitti</translation>
    </message>
    <message>
        <source>Match over: {names} win</source>
        <comment>several winners</comment>
        <translation>Ottelu päättyi: {names_fi} voittivat</translation>
    </message>
    <message>
        <source>{name}&apos;s turn</source>
        <extracomment>Whose turn it is; {name_gen}: the name in the Finnish genitive (&quot;Benin vuoro&quot;).</extracomment>
        <translation>{name_gen} vuoro</translation>
    </message>
    <message>
        <source>Round {round} is blocked: nobody can play. The hands left to count</source>
        <translation>Kierros {round} on tukossa: kukaan ei voi pelata. Jäljellä olevat kädet lasketaan</translation>
    </message>
    <message>
        <source>Round {round} is over: the hands left to count</source>
        <translation>Kierros {round} päättyi: jäljelle jääneet kädet lasketaan</translation>
    </message>
    <message>
        <source>Waiting for the first round</source>
        <translation>Odotetaan ensimmäistä kierrosta</translation>
    </message>
    <message>
        <source>{name} starts the next round</source>
        <translation>{name} aloittaa seuraavan kierroksen</translation>
    </message>
    <message>
        <source>Waiting for the next round</source>
        <translation>Odotetaan seuraavaa kierrosta</translation>
    </message>
</context>
<context>
    <name>TilePicker</name>
    <message>
        <source>opens the round</source>
        <translation>avaa kierroksen</translation>
    </message>
    <message>
        <source>on {tile} ({side})</source>
        <translation>laatan {tile} jatkoksi ({side})</translation>
    </message>
    <message>
        <source>1 point</source>
        <translation>1 piste</translation>
    </message>
    <message>
        <source>{count} points</source>
        <translation>{count} pistettä</translation>
    </message>
    <message>
        <source>no points</source>
        <translation>ei pisteitä</translation>
    </message>
    <message>
        <source>{where}: ends {terms} = {sum}, {scored}</source>
        <translation>{where}: päät {terms} = {sum}, {scored}</translation>
    </message>
    <message>
        <source>Enter a play</source>
        <translation>Syötä siirto</translation>
    </message>
    <message>
        <source>Player</source>
        <translation>Pelaaja</translation>
    </message>
    <message>
        <source>The tile laid:</source>
        <translation>Pelattu laatta:</translation>
    </message>
    <message>
        <source>Pick a tile.</source>
        <translation>Valitse laatta.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Peru</translation>
    </message>
    <message>
        <source>Pick a tile: it opens the round.</source>
        <translation>Valitse laatta: se avaa kierroksen.</translation>
    </message>
    <message>
        <source>No round is being played.</source>
        <translation>Kierrosta ei ole käynnissä.</translation>
    </message>
    <message>
        <source>Where it goes:</source>
        <translation>Mihin se pelataan:</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <source>How to use</source>
        <translation>Käyttöohje</translation>
    </message>
    <message>
        <source>About</source>
        <translation>Tietoja</translation>
    </message>
    <message>
        <source>Domino table scorer {version}

Scores Horse Race and Seven Rocks from a camera over the table, on a cribbage board. Every match is kept in its session file ({path}).</source>
        <translation>Dominopöydän pistelaskija {version}

Laskee Horse Racen ja Seven Rocksin pisteet pöydän yllä olevan kameran kuvasta ja merkitsee ne cribbage-laudalle. Jokainen ottelu säilyy omassa istuntotiedostossaan ({path}).</translation>
    </message>
    <message>
        <source>in memory</source>
        <translation>vain muistissa</translation>
    </message>
</context>
</TS>
